import type { HookView } from '@hookline/core';
import { PAUSED_FIELD, type HookJobs, type hookQueueLayout, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { SuspensionRule } from './contracts';
import type { Store } from './create-store';
import { failFirst as failFirstJob } from './test-support/fail-first';
import { hookWithJobs } from './test-support/hook-with-jobs';

// A worker's outcome script applies a failure to the hook's streak and, when that failure brings the streak to
// the suspension rule, pauses the hook's queue before BullMQ looks for the next job: the next event is held,
// not sent in the moment before the monitor reads the failure. The monitor records the suspension (the
// streak's `unrecorded`, its lease already over, and on one Redis the due set say so).

describe("a failure's outcome script and the suspension rule", () => {
  const ctx = useRedis('store-finish-suspend');
  let store: Store;
  let hook: HookView;
  let jobs: HookJobs;
  let layout: ReturnType<typeof hookQueueLayout>;
  let keys: RedisKeys;

  async function open(rule: SuspensionRule): Promise<void> {
    ({ store, keys, hook, jobs, layout } = await hookWithJobs(ctx, { suspensionRule: rule }));
  }

  const opened = () => ({ store, hook, jobs });
  /** Takes evt_1, records its failure (attempted at `at`) and asks BullMQ for the next job in the same call. */
  const failFirst = (at?: number, beforeOutcome?: () => Promise<unknown>) =>
    failFirstJob(opened(), at, beforeOutcome);

  const paused = async () => (await ctx.redis.hget(layout.meta, PAUSED_FIELD)) !== null;
  const streak = () => ctx.redis.hgetall(keys.hookStreak(hook.id));
  const due = () => ctx.redis.zscore(keys.suspensionDue(), hook.id);

  it('pauses the queue with the failure that reaches the threshold: no next job is taken', async () => {
    await open({ threshold: 1, windowMs: 0 });
    const next = await failFirst();

    expect(next).toBeUndefined();
    expect(await paused()).toBe(true);
    expect(await ctx.redis.llen(layout.wait)).toBe(1);
    // Left for the monitor to record, at once (no lease to wait out), and findable without the stream entry.
    expect(await streak()).toMatchObject({ count: '1', unrecorded: expect.any(String), lease_until: '0' });
    expect(await streak()).toMatchObject({ account: hook.account_id });
    expect(await due()).not.toBeNull();
    expect(await ctx.redis.zrange(keys.hookStreakFailures(hook.id), 0, -1)).toEqual(['evt_1']);
  });

  it('counts below the threshold and takes the next job as before', async () => {
    await open({ threshold: 2, windowMs: 0 });
    const next = await failFirst();

    expect(next?.id).toBe('evt_2');
    expect(await paused()).toBe(false);
    expect(await streak()).toMatchObject({ count: '1' });
    expect((await streak()).unrecorded).toBeUndefined();
    expect(await due()).toBeNull();
  });

  it('leaves a streak whose first failure is younger than the window to the monitor', async () => {
    await open({ threshold: 1, windowMs: 60_000 });
    const next = await failFirst();

    expect(next?.id).toBe('evt_2');
    expect(await paused()).toBe(false);
    expect(await due()).toBeNull();
  });

  it('counts a failure attempted before the streak was last reset (a re-enable) for nothing', async () => {
    await open({ threshold: 1, windowMs: 0 });
    await ctx.redis.hset(keys.hookStreak(hook.id), 'reset_at', Date.now(), 'count', 0);
    const next = await failFirst(Date.now() - 1000);

    expect(next?.id).toBe('evt_2');
    expect(await paused()).toBe(false);
    expect(await streak()).toMatchObject({ count: '0' });
  });

  it('a queue already paused (an admin, or a monitor first) is left to whoever paused it', async () => {
    await open({ threshold: 1, windowMs: 0 });
    // Paused while the request was in flight.
    await failFirst(Date.now(), () => ctx.redis.hset(layout.meta, PAUSED_FIELD, 1));

    expect((await streak()).unrecorded).toBeUndefined();
    expect(await due()).toBeNull();
  });

  it('without a rule (a process that does not record outcomes by it), only the monitor decides', async () => {
    ({ store, keys, hook, jobs, layout } = await hookWithJobs(ctx));
    const next = await failFirst();

    expect(next?.id).toBe('evt_2');
    expect(await paused()).toBe(false);
    expect(await ctx.redis.zcard(keys.hookStreakFailures(hook.id))).toBe(0);
  });
});
