import type { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { HookQueues } from './hook-queues';
import { hookQueueLayout } from './layout';
import { parseWaitingWindow, type WaitingWindow } from './waiting-window';
import { redisKeys } from '../keys';

// The one reader of a hook's waiting (held) events: windows by position for the website's pages, and windows
// behind an event read before for the API's cursor, which must neither repeat nor skip an event while events
// join the tail and leave the head between two reads.
describe("a window of a hook's waiting events", () => {
  const ctx = useRedis('waiting-window');
  const hookId = 'hk_window';
  const T0 = Date.UTC(2026, 10, 24, 9);
  let queues: HookQueues;
  let queue: Queue;

  beforeEach(async () => {
    queues = new HookQueues(ctx.redis, redisKeys(ctx.prefix));
    await queues.setUp(hookId);
    queue = queues.open(hookId);
    ctx.onCleanup(() => queue.close());
    await queues.pause(hookId);
  });

  /** Held events n..m, accepted a second apart after T0, as jobs `evt_n`. */
  const hold = async (from: number, to: number) => {
    for (let n = from; n <= to; n++)
      await queue.add(
        'deliver.v1',
        { event: { id: `evt_${n}` }, acceptedAt: T0 + n * 1000 },
        { jobId: `evt_${n}` },
      );
  };
  const ids = (w: WaitingWindow) => w.jobs.map((job) => job.id);
  const after = (w: WaitingWindow) => {
    const last = w.jobs.at(-1)!;
    return {
      after: { jobId: last.id, acceptedAt: (JSON.parse(last.data) as { acceptedAt: number }).acceptedAt },
    };
  };

  it('reads by position, oldest first, with the total and each job as BullMQ keeps it', async () => {
    const before = Date.now();
    await hold(1, 5);
    const first = await queues.waitingWindow(hookId, { from: 0 }, 2);
    expect(first).toMatchObject({ total: 5, from: 0 });
    expect(ids(first)).toEqual(['evt_1', 'evt_2']);
    expect(JSON.parse(first.jobs[0]!.data)).toEqual({ event: { id: 'evt_1' }, acceptedAt: T0 + 1000 });
    expect(first.jobs[0]!.addedAt).toBeGreaterThanOrEqual(before);
    expect(ids(await queues.waitingWindow(hookId, { from: 3 }, 10))).toEqual(['evt_4', 'evt_5']);
    expect(await queues.waitingWindow(hookId, { from: 5 }, 10)).toEqual({ total: 5, from: 5, jobs: [] });
    expect(await queues.waitingCount(hookId)).toBe(5);
  });

  it('goes on behind the last event read while events join the tail and leave the head', async () => {
    await hold(1, 6);
    const first = await queues.waitingWindow(hookId, { from: 0 }, 3);
    expect(ids(first)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    // Two leave the head (the hold cap, a discard), three join the tail.
    expect(await queues.dropOldestHeld(hookId, 4, 2)).toHaveLength(2);
    await hold(7, 9);
    const second = await queues.waitingWindow(hookId, after(first), 3);
    expect(second).toMatchObject({ total: 7, from: 1 });
    expect(ids(second)).toEqual(['evt_4', 'evt_5', 'evt_6']);
    const third = await queues.waitingWindow(hookId, after(second), 3);
    expect(ids(third)).toEqual(['evt_7', 'evt_8', 'evt_9']);
    expect(third).toMatchObject({ total: 7, from: 4 });
  });

  it('starts at the head when the last event read left with those before it, and at its time when it alone left', async () => {
    await hold(1, 8);
    const first = await queues.waitingWindow(hookId, { from: 0 }, 3);
    // The head up to and past the last event read is gone (delivered, discarded, expired).
    await queues.dropOldestHeld(hookId, 4, 4);
    expect(ids(await queues.waitingWindow(hookId, after(first), 3))).toEqual(['evt_5', 'evt_6', 'evt_7']);

    // Only the last event read left (an erasure takes events from anywhere): those before it are not repeated.
    const second = await queues.waitingWindow(hookId, { from: 0 }, 2);
    expect(ids(second)).toEqual(['evt_5', 'evt_6']);
    await ctx.redis.lrem(hookQueueLayout(redisKeys(ctx.prefix), hookId).wait, 0, 'evt_6');
    const third = await queues.waitingWindow(hookId, after(second), 2);
    expect(ids(third)).toEqual(['evt_7', 'evt_8']);
    expect(third).toMatchObject({ total: 3, from: 1 });
  });

  it('comes after every event, at the end, when the last event read was the last of all', async () => {
    await hold(1, 3);
    const all = await queues.waitingWindow(hookId, { from: 0 }, 3);
    expect(await queues.waitingWindow(hookId, after(all), 3)).toEqual({ total: 3, from: 3, jobs: [] });
    await queues.dropOldestHeld(hookId, 0, 3);
    expect(await queues.waitingWindow(hookId, after(all), 3)).toEqual({ total: 0, from: 0, jobs: [] });
  });

  it('says so when the script answers in a shape it does not know', () => {
    expect(() => parseWaitingWindow([1])).toThrow('waiting-window.lua answered in a shape');
    expect(() => parseWaitingWindow([1, 0, 'evt_1', '{}'])).toThrow('waiting-window.lua answered in a shape');
  });
});
