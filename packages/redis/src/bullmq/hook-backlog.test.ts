import { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { needsWorker } from './hook-backlog';
import { EVENTS_MAX_LEN, HookQueues } from './hook-queues';
import { HookJobs } from './hook-jobs';
import { redisKeys } from '../keys';

describe("a hook queue's backlog", () => {
  const ctx = useRedis('backlog');
  const hookId = 'hk_backlog';
  let queues: HookQueues;
  let queue: Queue;

  beforeEach(async () => {
    const keys = redisKeys(ctx.prefix);
    queues = new HookQueues(ctx.redis, keys);
    await queues.setUp(hookId);
    queue = new Queue(keys.hookQueueName(hookId), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    ctx.onCleanup(() => queue.close());
  });

  it('counts waiting and active jobs and dates the oldest waiting one, as the next to be delivered', async () => {
    // BullMQ stamps a job with the adding client's clock: each add is dated between the reads around it,
    // however slowly a loaded machine runs them.
    const before = Date.now();
    await queue.add('deliver.v1', { n: 1 });
    const firstAdded = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beforeSecond = Date.now();
    await queue.add('deliver.v1', { n: 2 });
    const [backlog] = await queues.backlogMany([hookId]);
    expect(backlog).toMatchObject({ waiting: 2, active: 0, paused: false });
    expect(backlog!.oldestWaitingAt).toBeGreaterThanOrEqual(before);
    expect(backlog!.oldestWaitingAt).toBeLessThanOrEqual(firstAdded);
    expect(needsWorker(backlog!)).toBe(true);

    // The first is taken: the oldest waiting is now the second, and one is active.
    await new HookJobs(ctx.redis, redisKeys(ctx.prefix), 5_000).take(hookId, 't:1');
    const [next] = await queues.backlogMany([hookId]);
    expect(next).toMatchObject({ waiting: 1, active: 1 });
    expect(next!.oldestWaitingAt).toBeGreaterThanOrEqual(beforeSecond);
    expect(next!.oldestWaitingAt).toBeGreaterThan(backlog!.oldestWaitingAt!);
  });

  it('held events of a suspended hook wait for a person, not a worker', async () => {
    await queue.add('deliver.v1', { n: 1 });
    await queues.pause(hookId);
    const [backlog] = await queues.backlogMany([hookId]);
    expect(backlog).toMatchObject({ waiting: 1, active: 0, paused: true });
    expect(needsWorker(backlog!)).toBe(false);
  });

  it('tells the hooks with jobs (waiting, held or active) from those with none, which most are', async () => {
    await queue.add('deliver.v1', { n: 1 });
    await queues.setUp('hk_empty');
    expect(await queues.withJobs(['hk_empty', hookId, 'hk_never'])).toEqual([hookId]);
    await queues.pause(hookId);
    expect(await queues.withJobs([hookId])).toEqual([hookId]);
  });

  it("reads many hooks' backlogs, each its own, in the order asked, across the calls a large look is cut into", async () => {
    const ids = Array.from({ length: 205 }, (_, i) => `hk_many${i}`);
    const keys = redisKeys(ctx.prefix);
    for (const [id, jobs] of [
      ['hk_many0', 1],
      ['hk_many199', 2],
      ['hk_many204', 3],
    ] as const) {
      const q = new Queue(keys.hookQueueName(id), {
        connection: ctx.redis,
        prefix: keys.prefix,
        streams: { events: { maxLen: EVENTS_MAX_LEN } },
      });
      ctx.onCleanup(() => q.close());
      for (let n = 0; n < jobs; n++) await q.add('deliver.v1', { n });
    }
    await queues.setUp('hk_many200');
    await queues.pause('hk_many200');
    const backlogs = await queues.backlogMany(ids);
    expect(backlogs).toHaveLength(205);
    expect(backlogs.map((b, i) => [i, b.waiting, b.paused]).filter(([, w, p]) => w !== 0 || p)).toEqual([
      [0, 1, false],
      [199, 2, false],
      [200, 0, true],
      [204, 3, false],
    ]);
    expect(backlogs[204]!.oldestWaitingAt).toBeGreaterThan(0);
  });

  it('an empty or deleted hook has no backlog', async () => {
    await queues.remove(hookId);
    expect(await queues.backlogMany([hookId, 'hk_never'])).toEqual([
      { waiting: 0, active: 0, paused: false },
      { waiting: 0, active: 0, paused: false },
    ]);
  });
});
