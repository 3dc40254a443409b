import { Worker } from 'bullmq';
import { SAMPLE_CALL_DATA, type HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { connectRedis, startReceiver, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import type { HookControl } from './control';
import type { HookQueues } from '@hookline/redis';
import type { DeliverJobData } from '@hookline/queue';
import { Producer } from '@hookline/queue';
import { suspensionForTest } from './test-support/suspension-for-test';

// These tests deliver with a plain BullMQ Worker standing in for apps/worker: what is under test is which
// jobs are left in the queue, in which order, and what is recorded. End-to-end runs with the real worker are
// in apps/monitor/test.

const ctx = useRedis('hook-control');
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: ReturnType<typeof suspensionForTest>['store'];
let control: HookControl;
let producer: Producer;
let receiver: Receiver;
let hook: HookView;

beforeEach(async () => {
  ({ keys, hookQueues, store, control } = suspensionForTest(ctx));
  producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys, erasureTags: store.erasureTags }));
  receiver = ctx.closeLater(await startReceiver());
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    { url: receiver.url(), format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
});

/** Delivers the hook's queue one job at a time, posting the call id, like a worker would. */
function standInWorker(): Worker {
  const connection = connectRedis();
  ctx.onCleanup(() => connection.disconnect());
  const worker = new Worker(
    keys.hookQueueName(hook.id),
    async (job) => {
      const data = job.data as DeliverJobData;
      await fetch(receiver.url(), { method: 'POST', body: data.event.fields.call_id });
    },
    { connection, prefix: keys.prefix, concurrency: 1 },
  );
  return ctx.closeLater(worker);
}

async function publish(...callIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const call_id of callIds)
    ids.push(
      (
        await producer.publish(hook.account_id, {
          type: 'call_created',
          data: { ...SAMPLE_CALL_DATA, call_id },
        })
      ).id,
    );
  return ids;
}

const bodies = () => receiver.requests.map((r) => r.body.toString());
const activity = async () => store.activity.list(hook.account_id, 50);

describe('HookControl', () => {
  it('suspends once: the queue is paused and the reason recorded, a second suspend changes nothing', async () => {
    expect(await control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
    expect(await control.suspend(hook.id, 'paused again', 'admin:other')).toBe(false);

    const view = await store.hooks.get(hook.account_id, hook.id);
    expect(view).toMatchObject({ state: 'suspended', suspended_reason: 'paused by admin' });
    expect(await hookQueues.isPaused(hook.id)).toBe(true);
    const suspended = (await activity()).filter((e) => e.kind === 'hook.suspended');
    expect(suspended).toEqual([
      {
        kind: 'hook.suspended',
        at: view!.suspended_at,
        hook_id: hook.id,
        actor: 'admin:ops',
        detail: 'paused by admin',
      },
    ]);
    expect(await ctx.redis.sismember(keys.suspendedHooks(), hook.id)).toBe(1);
  });

  it('holds events while suspended and delivers them in order after enable(deliver)', async () => {
    await control.suspend(hook.id, '3 consecutive failures', 'monitor');
    standInWorker();
    await publish('c1', 'c2', 'c3');
    expect(await hookQueues.waitingCount(hook.id)).toBe(3);
    expect(receiver.requests).toHaveLength(0);

    const view = await control.enable(hook.account_id, hook.id, 'deliver', `customer:${hook.account_id}`);
    expect(view).toMatchObject({
      hook: { id: hook.id, state: 'active' },
      changed: true,
      discarded: 0,
      queued: 3,
    });
    expect(view?.hook.suspended_reason).toBeUndefined();
    await receiver.waitFor(3);
    expect(bodies()).toEqual(['c1', 'c2', 'c3']);

    const [enabled] = await activity();
    expect(enabled).toMatchObject({
      kind: 'hook.enabled',
      hook_id: hook.id,
      actor: `customer:${hook.account_id}`,
      detail: 're-enabled; 3 held events queued for delivery, in order',
    });
    expect(await ctx.redis.zscore(keys.readyHooks(), hook.id)).not.toBeNull();
    expect(await ctx.redis.sismember(keys.suspendedHooks(), hook.id)).toBe(0);
  });

  it('records held events as discarded after enable(discard) and delivers only what comes next', async () => {
    await control.suspend(hook.id, 'paused by admin', 'admin:ops');
    const held = await publish('c1', 'c2');

    const view = await control.enable(hook.account_id, hook.id, 'discard', 'operator');
    expect(view).toMatchObject({ hook: { state: 'active' }, changed: true, discarded: 2, queued: 0 });
    expect(await hookQueues.waitingCount(hook.id)).toBe(0);
    const log = await store.deliveryLog.list(hook.id, 10);
    expect(log.map((r) => [r.event_id, r.outcome])).toEqual([
      [held[1], 'discarded'],
      [held[0], 'discarded'],
    ]);
    expect((await activity())[0]).toMatchObject({
      kind: 'hook.enabled',
      detail: 're-enabled; 2 held events discarded',
    });

    standInWorker();
    await publish('c3');
    await receiver.waitFor(1);
    expect(bodies()).toEqual(['c3']);
  });

  it('enabling an active hook is a no-op that returns the hook', async () => {
    const view = await control.enable(hook.account_id, hook.id, 'discard', 'operator');
    expect(view).toEqual({ hook: await store.hooks.get(hook.account_id, hook.id), changed: false });
    expect((await activity()).map((e) => e.kind)).toEqual(['hook.created']);
  });

  it("answers undefined for another account's hook and leaves it suspended", async () => {
    await control.suspend(hook.id, 'paused by admin', 'admin:ops');
    const other = await store.accounts.create({ name: 'Other' });
    expect(await control.enable(other.id, hook.id, 'deliver', `customer:${other.id}`)).toBeUndefined();
    expect(await hookQueues.isPaused(hook.id)).toBe(true);
  });

  it('two people enabling at once record one re-enable', async () => {
    await control.suspend(hook.id, '3 consecutive failures', 'monitor');
    const views = await Promise.all([
      control.enable(hook.account_id, hook.id, 'deliver', 'admin:ops'),
      control.enable(hook.account_id, hook.id, 'deliver', 'operator'),
    ]);
    expect(views.map((v) => v?.hook.state)).toEqual(['active', 'active']);
    // One of them re-enabled it; the other found it active.
    expect(views.map((v) => v?.changed).sort()).toEqual([false, true]);
    await waitUntil(async () => !(await hookQueues.isPaused(hook.id)), 'the hook to be active');
    expect((await activity()).filter((e) => e.kind === 'hook.enabled')).toHaveLength(1);
  });

  it('a deliver and a discard at once: the re-enable that happens decides, and the other changes nothing', async () => {
    await control.suspend(hook.id, '3 consecutive failures', 'monitor');
    standInWorker();
    await publish('c1', 'c2', 'c3');
    const [deliver, discard] = await Promise.all([
      control.enable(hook.account_id, hook.id, 'deliver', 'operator'),
      control.enable(hook.account_id, hook.id, 'discard', 'admin:ops'),
    ]);
    expect([deliver?.changed, discard?.changed].filter(Boolean)).toEqual([true]);
    const enabled = (await activity()).filter((e) => e.kind === 'hook.enabled');
    expect(enabled).toHaveLength(1);
    const outcomes = async () => (await store.deliveryLog.list(hook.id, 10)).map((r) => r.outcome);
    if (deliver?.changed) {
      // What the entry says is what happened: the three are delivered, none discarded.
      expect(enabled[0]!.detail).toBe('re-enabled; 3 held events queued for delivery, in order');
      await receiver.waitFor(3);
      expect(bodies()).toEqual(['c1', 'c2', 'c3']);
      expect(await outcomes()).not.toContain('discarded');
    } else {
      expect(enabled[0]!.detail).toBe('re-enabled; 3 held events discarded');
      expect(await outcomes()).toEqual(['discarded', 'discarded', 'discarded']);
      expect(receiver.requests).toHaveLength(0);
    }
  });
});

describe('HookControl under HOOKLINE_HOLD_MAX', () => {
  const HOLD_MAX = 2;

  beforeEach(async () => {
    // The same Redis prefix, with a hook control capped at 2 held events.
    ({ keys, hookQueues, store, control } = suspensionForTest(ctx, HOLD_MAX));
    producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys, erasureTags: store.erasureTags }));
    const account = await store.accounts.create({ name: 'Acme' });
    hook = await store.hooks.create(
      account.id,
      { url: receiver.url(), format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
  });

  const heldCallIds = async () =>
    (await ctx.closeLater(hookQueues.open(hook.id)).getWaiting()).map(
      (job) => (job.data as DeliverJobData).event.fields.call_id,
    );
  const expired = async () =>
    (await store.deliveryLog.list(hook.id, 10))
      .filter((r) => r.outcome === 'expired')
      .map((r) => r.event_id)
      .reverse();

  it('an admin pause keeps only the newest events queued before it, recording the oldest expired', async () => {
    const ids = await publish('c1', 'c2', 'c3', 'c4');
    expect(await control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
    // At the pause, with no publish after it.
    expect(await heldCallIds()).toEqual(['c3', 'c4']);
    expect(await expired()).toEqual(ids.slice(0, 2));

    standInWorker();
    const view = await control.enable(hook.account_id, hook.id, 'deliver', 'admin:ops');
    expect(view).toMatchObject({ changed: true, queued: 2 });
    await receiver.waitFor(2);
    await publish('c5');
    await receiver.waitFor(3);
    expect(bodies()).toEqual(['c3', 'c4', 'c5']);
  });

  it('a re-enable delivers at most the cap, even of a pause whose suspension is not recorded yet', async () => {
    const ids = await publish('c1', 'c2', 'c3', 'c4');
    // The queue paused as a worker's outcome script pauses it, before the monitor records (and caps) it.
    await hookQueues.pauseOnce(hook.id);

    standInWorker();
    const view = await control.enable(hook.account_id, hook.id, 'deliver', `customer:${hook.account_id}`);
    expect(view).toMatchObject({ changed: true, queued: 2 });
    await receiver.waitFor(2);
    await publish('c5');
    await receiver.waitFor(3);
    expect(bodies()).toEqual(['c3', 'c4', 'c5']);
    expect(await expired()).toEqual(ids.slice(0, 2));
  });
});
