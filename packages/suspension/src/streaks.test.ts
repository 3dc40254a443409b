import { newId } from '@hookline/core';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { HookQueues } from '@hookline/redis';
import { streakStep } from './rules';
import { readStreak, resetStreak, Streaks, type StreakInput } from './streaks';

const ctx = useRedis('streak');
let keys: RedisKeys;
let hookQueues: HookQueues;
let hookId: string;
const ACCOUNT = 'acct_0123456789abcdef';
const T0 = Date.parse('2026-01-05T10:00:00.000Z');

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  hookQueues = new HookQueues(ctx.redis, keys);
  hookId = newId('hk');
  await hookQueues.setUp(hookId);
});

const failure = (eventId: string, at: number): StreakInput => ({
  hookId,
  accountId: ACCOUNT,
  step: 'failure',
  eventId,
  at,
});
const delivered = (eventId: string, at: number): StreakInput => ({
  ...failure(eventId, at),
  step: 'delivered',
});

describe('streaks', () => {
  it('counts an outcome delivered twice (a monitor died before acknowledging) once', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 10, windowMs: 0 });
    await streaks.applyMany([failure('evt_a', T0), failure('evt_b', T0 + 1)], T0 + 2);
    const [again] = await streaks.applyMany([failure('evt_a', T0)], T0 + 3);
    expect(again).toEqual({ kind: 'counting', count: 2, accountId: ACCOUNT });
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 2, startedAt: T0 });
  });

  it('a delivered outcome resets the streak, and a failure attempted before it no longer counts', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 3, windowMs: 0 });
    await streaks.applyMany(
      [failure('evt_a', T0), failure('evt_b', T0 + 10), delivered('evt_c', T0 + 20)],
      T0 + 30,
    );
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 0 });
    // Two monitors may apply outcomes out of order: a late failure from before the success is ignored.
    await streaks.applyMany([failure('evt_old', T0 + 15)], T0 + 30);
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 0 });
    await streaks.applyMany([failure('evt_d', T0 + 40)], T0 + 50);
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 1, startedAt: T0 + 40 });
  });

  it('warns once per streak, at exactly half the threshold, and again after a delivered outcome', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 5, windowMs: 60_000 });
    const steps = await streaks.applyMany(
      [1, 2, 3, 4].map((n) => failure(`evt_${n}`, T0 + n)),
      T0 + 10,
    );
    // ceil(5 / 2) = 3: the third failure, and only it, carries the warning.
    expect(steps.map((s) => (s.kind === 'gone' ? undefined : s.warn))).toEqual([
      undefined,
      undefined,
      true,
      undefined,
    ]);
    expect(steps[2]).toMatchObject({ streakStartedAt: T0 + 1 });
    // A redelivered entry (a monitor died before acknowledging it) changes nothing.
    const [again] = await streaks.applyMany([failure('evt_3', T0 + 3)], T0 + 20);
    expect(again).not.toHaveProperty('warn');
    await streaks.applyMany([delivered('evt_5', T0 + 30)], T0 + 40);
    const next = await streaks.applyMany(
      [6, 7, 8].map((n) => failure(`evt_${n}`, T0 + 40 + n)),
      T0 + 60,
    );
    expect(next.map((s) => (s.kind === 'gone' ? undefined : s.warn))).toEqual([undefined, undefined, true]);
  });

  it('keeps failures attempted after a success that arrives late', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 5, windowMs: 0 });
    await streaks.applyMany(
      [failure('evt_a', T0), failure('evt_c', T0 + 20), delivered('evt_b', T0 + 10)],
      T0 + 30,
    );
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 1, startedAt: T0 + 20 });
  });

  it('needs both the count and the age: says when to look again, then suspends once', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 2, windowMs: 1000 });
    const [first, second] = await streaks.applyMany(
      [failure('evt_a', T0), failure('evt_b', T0 + 100)],
      T0 + 200,
    );
    // Half of 2 is 1: the first failure is also the warning.
    expect(first).toEqual({
      kind: 'counting',
      count: 1,
      accountId: ACCOUNT,
      warn: true,
      streakStartedAt: T0,
      warnedAt: 1,
    });
    expect(second).toEqual({ kind: 'due', count: 2, accountId: ACCOUNT, dueAt: T0 + 1000 });
    expect(await hookQueues.isPaused(hookId)).toBe(false);

    expect(await streaks.check(hookId, T0 + 1000)).toEqual({
      kind: 'suspend',
      count: 2,
      accountId: ACCOUNT,
      startedAt: T0,
    });
    expect(await hookQueues.isPaused(hookId)).toBe(true);
    // Another monitor evaluating the same streak at the same time is not told to suspend it again.
    expect((await streaks.check(hookId, T0 + 1001)).kind).toBe('counting');
  });

  it('warns from where the warning failure stood, though workers have counted later failures already', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 6, windowMs: 60_000 });
    // What workers' outcome scripts write for failures 1 to 5, before any monitor reads them.
    for (const n of [1, 2, 3, 4, 5]) {
      await ctx.redis.zadd(keys.hookStreakFailures(hookId), T0 + n, `evt_${n}`);
      await ctx.redis.hincrby(keys.hookStreak(hookId), 'count', 1);
    }
    const steps = await streaks.applyMany(
      [1, 2, 3, 4, 5].map((n) => failure(`evt_${n}`, T0 + n)),
      T0 + 10,
    );
    // ceil(6 / 2) = 3: the third failure warns, describing a streak of 3, not the 5 counted by then.
    expect(steps.map((s) => (s.kind === 'gone' ? undefined : s.warn && s.warnedAt))).toEqual([
      undefined,
      undefined,
      3,
      undefined,
      undefined,
    ]);
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 5, startedAt: T0 + 1 });
  });

  it('hands an unrecorded suspension to another monitor once the lease has run out', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 1, windowMs: 0, leaseMs: 500 });
    expect((await streaks.applyMany([failure('evt_a', T0)], T0))[0]!.kind).toBe('suspend');
    expect((await streaks.check(hookId, T0 + 499)).kind).toBe('counting');
    expect(await streaks.check(hookId, T0 + 500)).toMatchObject({ kind: 'suspend', startedAt: T0 });
    await streaks.markRecorded(hookId);
    expect((await streaks.check(hookId, T0 + 5000)).kind).toBe('counting');
  });

  it('leaves a hook paused by someone else alone', async () => {
    await hookQueues.pause(hookId);
    const streaks = new Streaks(ctx.redis, keys, { threshold: 1, windowMs: 0 });
    expect((await streaks.applyMany([failure('evt_a', T0)], T0))[0]!.kind).toBe('counting');
  });

  it('forgets the streak of a deleted hook', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 5, windowMs: 0 });
    await streaks.applyMany([failure('evt_a', T0)], T0);
    await hookQueues.remove(hookId);
    expect(await streaks.applyMany([failure('evt_b', T0 + 1)], T0 + 1)).toEqual([{ kind: 'gone' }]);
    expect(await ctx.redis.exists(keys.hookStreak(hookId), keys.hookStreakFailures(hookId))).toBe(0);
  });

  it('starts afresh after a reset: failures attempted before it do not count', async () => {
    const streaks = new Streaks(ctx.redis, keys, { threshold: 5, windowMs: 0 });
    await streaks.applyMany([failure('evt_a', T0), failure('evt_b', T0 + 1)], T0 + 2);
    await resetStreak(ctx.redis, keys, hookId, T0 + 10);
    await streaks.applyMany([failure('evt_c', T0 + 5), failure('evt_d', T0 + 11)], T0 + 12);
    expect(await readStreak(ctx.redis, keys, hookId)).toEqual({ count: 1, startedAt: T0 + 11 });
  });

  it('counts every attempt outcome except delivered as a failure, and dropped events as nothing', () => {
    expect(streakStep('delivered')).toBe('delivered');
    for (const outcome of ['failed', 'timed_out', 'error', 'blocked', 'unknown'] as const)
      expect(streakStep(outcome)).toBe('failure');
    expect(streakStep('expired')).toBeUndefined();
    expect(streakStep('discarded')).toBeUndefined();
  });
});
