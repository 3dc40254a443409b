import type { AttemptRecord, DeliveryRecord, HookView } from '@hookline/core';
import { hookQueueLayout, type RedisKeys } from '@hookline/redis';
import type { AttemptFence, Store } from '@hookline/store';
import { useRedis } from '@hookline/testing';
import { streakStep } from './rules';
import { readStreak, Streaks } from './streaks';
import { suspensionForTest } from './test-support/suspension-for-test';

const ctx = useRedis('streak-ledger');
let keys: RedisKeys;
let store: Store;
let hook: HookView;
let fence: AttemptFence;

beforeEach(async () => {
  ({ store, keys } = suspensionForTest(ctx));
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    {
      url: 'https://example.com/in',
      format: 'json',
      auth: { scheme: 'bearer', token: 'sk_live_51HqLyjWDarjtT1zdp7dc' },
    },
    'test',
  );
  // The worker holds the event's job (BullMQ's lock holds its token): the ledger checks that fence.
  fence = { jobId: '1', token: 'holder-a' };
  await ctx.redis.set(hookQueueLayout(keys, hook.id).jobLock(fence.jobId), fence.token, 'PX', 60_000);
});

const T0 = Date.parse('2024-05-01T10:00:00.000Z');
const record = (eventId: string, outcome: DeliveryRecord['outcome'], at: number): AttemptRecord => ({
  attempt_id: `att_${eventId.slice(4)}`,
  trigger: 'auto',
  account_id: hook.account_id,
  hook_id: hook.id,
  event_id: eventId,
  event_type: 'call_created',
  outcome,
  duration_ms: 3,
  attempted_at: new Date(at).toISOString(),
});

// The worker applies delivered outcomes to the streak itself; failures reach the monitor through the outcome
// stream, possibly later. The two must agree whatever order they land in.
describe('attempt ledger and the failure streak', () => {
  const streaks = () => new Streaks(ctx.redis, keys, { threshold: 3, windowMs: 0 });
  const finish = async (eventId: string, outcome: DeliveryRecord['outcome'], at: number) => {
    await store.attempts.begin(hook.id, eventId, fence);
    await store.attempts.finish(hook.id, record(eventId, outcome, at), fence, streakStep(outcome));
  };
  const monitorCounts = (eventId: string, at: number) =>
    streaks().applyMany(
      [{ hookId: hook.id, accountId: hook.account_id, step: 'failure', eventId, at }],
      at + 1000,
    );

  it('a hook that never failed gets no streak keys from its deliveries', async () => {
    await finish('evt_1', 'delivered', T0);
    expect(await ctx.redis.exists(keys.hookStreak(hook.id), keys.hookStreakFailures(hook.id))).toBe(0);
  });

  it('a success ends the streak even when the monitor counts the failure before it only afterwards', async () => {
    await finish('evt_1', 'failed', T0);
    expect(await ctx.redis.pttl(keys.hookStreak(hook.id))).toBeGreaterThan(0);
    await finish('evt_2', 'delivered', T0 + 10);
    const [late] = await monitorCounts('evt_1', T0);
    expect(late).toMatchObject({ kind: 'counting', count: 0 });
    expect(await readStreak(ctx.redis, keys, hook.id)).toEqual({ count: 0 });
    // A failure after the success starts a new streak.
    await finish('evt_3', 'timed_out', T0 + 20);
    await monitorCounts('evt_3', T0 + 20);
    expect(await readStreak(ctx.redis, keys, hook.id)).toEqual({ count: 1, startedAt: T0 + 20 });
  });

  it('a success clears the failures the monitor has already counted', async () => {
    for (const [n, at] of [T0, T0 + 1].entries()) {
      await finish(`evt_${n}`, 'error', at);
      await monitorCounts(`evt_${n}`, at);
    }
    expect(await readStreak(ctx.redis, keys, hook.id)).toEqual({ count: 2, startedAt: T0 });
    await finish('evt_ok', 'delivered', T0 + 5);
    expect(await readStreak(ctx.redis, keys, hook.id)).toEqual({ count: 0 });
  });

  it('outcomes that are not attempts (expired, discarded) leave the streak alone', async () => {
    await finish('evt_1', 'expired', T0);
    expect(await ctx.redis.exists(keys.hookStreak(hook.id))).toBe(0);
  });
});
