import type { AttemptRecord, DeliveryRecord, HookView } from '@hookline/core';
import { hookQueueLayout, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AccountView, AttemptFence } from './contracts';
import type { Store } from './create-store';
import { holdJob } from './test-support/hold-job';
import { storeForTest } from './test-support/store-for-test';

const ctx = useRedis('store-attempts');
let keys: RedisKeys;
let store: Store;
let hook: HookView;
let fence: AttemptFence;

const BEARER = { scheme: 'bearer', token: 'sk_live_51HqLyjWDarjtT1zdp7dc' } as const;

beforeEach(async () => {
  ({ store, keys } = storeForTest(ctx));
  const account: AccountView = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    {
      url: 'https://example.com/in',
      format: 'json',
      auth: BEARER,
    },
    'test',
  );
  fence = await holdJob(ctx.redis, keys, hook.id);
});

const T0 = Date.parse('2024-05-01T10:00:00.000Z');
const record = (
  eventId: string,
  outcome: DeliveryRecord['outcome'] = 'delivered',
  at = T0,
): AttemptRecord => ({
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

/** The records the finish step appended to the hook's history outbox, newest first. */
const outbox = async (): Promise<AttemptRecord[]> =>
  (await ctx.redis.lrange(keys.hookHistoryOutbox(hook.id), 0, -1))
    .map((entry) => JSON.parse(entry) as AttemptRecord)
    .reverse();

describe('attempt ledger', () => {
  it('a first attempt gets the target with its credentials decrypted', async () => {
    const start = await store.attempts.begin(hook.id, 'evt_1', fence);
    expect(start).toMatchObject({
      kind: 'send',
      target: {
        id: hook.id,
        accountId: hook.account_id,
        url: 'https://example.com/in',
        format: 'json',
        auth: BEARER,
        version: 1,
      },
    });
    // What is left of the job's lock, for the worker's last check before the request leaves.
    expect(start.kind === 'send' && start.lockMsLeft).toBeGreaterThan(29_000);
  });

  it('an attempt begun but not finished is maybe_sent for whoever takes the job over', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    const takeover = await holdJob(ctx.redis, keys, hook.id, { token: 'holder-b' });
    expect(await store.attempts.begin(hook.id, 'evt_1', takeover)).toEqual({ kind: 'maybe_sent' });
  });

  it('the same holder asking again (its client resent the call, the reply lost) is told to send', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    expect((await store.attempts.begin(hook.id, 'evt_1', fence)).kind).toBe('send');
    await store.attempts.finish(hook.id, record('evt_1'), fence);
    // A resent finish records nothing twice.
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('recorded');
    expect(await outbox()).toEqual([record('evt_1')]);
  });

  it('a finished attempt is already_recorded when the job runs again, and its record is in the log once', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    await store.attempts.finish(hook.id, record('evt_1'), fence);
    expect(await store.attempts.begin(hook.id, 'evt_1', fence)).toEqual({ kind: 'already_recorded' });
    expect(await outbox()).toEqual([record('evt_1')]);
  });

  it('the next event after a finished one is sent', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    await store.attempts.finish(hook.id, record('evt_1'), fence);
    expect((await store.attempts.begin(hook.id, 'evt_2', fence)).kind).toBe('send');
  });

  it('each outcome appends its record to the outbox, in order, for the history writer', async () => {
    for (const n of [1, 2, 3, 4]) {
      await store.attempts.begin(hook.id, `evt_${n}`, fence);
      await store.attempts.finish(hook.id, record(`evt_${n}`), fence);
    }
    expect(await outbox()).toEqual(['evt_4', 'evt_3', 'evt_2', 'evt_1'].map((id) => record(id)));
    // Kept until the writer trims it, and never for ever if nobody does.
    expect(await ctx.redis.pttl(keys.hookHistoryOutbox(hook.id))).toBeGreaterThan(6 * 24 * 3600 * 1000);
  });

  it('a change to the hook reaches the next attempt (the cached target is by version)', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    await store.attempts.finish(hook.id, record('evt_1'), fence);
    await store.hooks.update(
      hook.account_id,
      hook.id,
      {
        url: 'https://example.com/moved',
        auth: { scheme: 'basic', username: 'u', password: 'p' },
      },
      'test',
    );
    const start = await store.attempts.begin(hook.id, 'evt_2', fence);
    expect(start).toMatchObject({
      kind: 'send',
      target: {
        url: 'https://example.com/moved',
        auth: { scheme: 'basic', username: 'u', password: 'p' },
        version: 2,
      },
    });
  });

  it('a deleted hook: nothing more to send, and no key is left when no attempt was in flight', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    await store.attempts.finish(hook.id, record('evt_1'), fence);
    await ctx.redis.del(keys.hookHistoryOutbox(hook.id));
    await store.hooks.remove(hook.account_id, hook.id, 'test');
    expect(await store.attempts.begin(hook.id, 'evt_2', fence)).toEqual({ kind: 'hook_deleted' });
    expect(await ctx.redis.exists(keys.hookAttempt(hook.id), keys.hookHistoryOutbox(hook.id))).toBe(0);
  });

  // Every attempt is recorded: the request left before the delete, and the account's history shows it.
  it('a hook deleted while its request is in flight: the outcome is recorded, once', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    await store.hooks.remove(hook.account_id, hook.id, 'test');
    expect(await ctx.redis.pttl(keys.hookAttempt(hook.id))).toBeGreaterThan(60_000);
    // The delete took the job's lock with the queue.
    await ctx.redis.del(hookQueueLayout(keys, hook.id).jobLock(fence.jobId));
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('recorded_deleted');
    expect(await outbox()).toEqual([record('evt_1')]);
    // Sent again (a reply lost on the way back), it writes nothing more.
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('fenced');
    expect(await outbox()).toHaveLength(1);
  });

  it('a hook deleted after a take-over recorded the attempt: the stale holder records nothing', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    const takeover = await holdJob(ctx.redis, keys, hook.id, { token: 'holder-b' });
    expect(await store.attempts.begin(hook.id, 'evt_1', takeover)).toMatchObject({ kind: 'maybe_sent' });
    expect(await store.attempts.finish(hook.id, record('evt_1', 'unknown'), takeover)).toBe('recorded');
    await store.hooks.remove(hook.account_id, hook.id, 'test');
    await ctx.redis.del(hookQueueLayout(keys, hook.id).jobLock(fence.jobId));
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('fenced');
    expect((await outbox()).map((r) => r.outcome)).toEqual(['unknown']);
  });
});

// A process frozen past its job lock (SIGSTOP, a long GC pause) wakes up believing it holds the job; another
// process has taken it over since. Its writes must change nothing.
describe('attempt ledger fenced by the job lock', () => {
  it("a holder whose lock is now another's neither marks the attempt nor learns the target", async () => {
    await holdJob(ctx.redis, keys, hook.id, { token: 'holder-b' });
    expect(await store.attempts.begin(hook.id, 'evt_1', fence)).toEqual({ kind: 'fenced' });
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBeNull();
  });

  it('a holder whose lock expired gets fenced too', async () => {
    const stale = await holdJob(ctx.redis, keys, hook.id, { jobId: '2', lockMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await store.attempts.begin(hook.id, 'evt_1', stale)).toEqual({ kind: 'fenced' });
  });

  it("a stale finish writes no log entry and leaves the new holder's marker alone", async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    const takeover = await holdJob(ctx.redis, keys, hook.id, { token: 'holder-b' });
    expect(await store.attempts.begin(hook.id, 'evt_1', takeover)).toEqual({ kind: 'maybe_sent' });
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('fenced');
    expect(await outbox()).toEqual([]);
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1 holder-a');
  });

  it("a finish never touches another event's marker", async () => {
    await store.attempts.begin(hook.id, 'evt_2', fence);
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('not_this_attempt');
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_2 holder-a');
    expect(await outbox()).toEqual([]);
  });

  it('the holder records its outcome', async () => {
    await store.attempts.begin(hook.id, 'evt_1', fence);
    expect(await store.attempts.finish(hook.id, record('evt_1'), fence)).toBe('recorded');
  });
});
