import type { DeliveryRecord, HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import type { Store } from './create-store';
import { storeForTest } from './test-support/store-for-test';

const ctx = useRedis('store-attempts');
let keys: RedisKeys;
let store: Store;
let hook: HookView;

const BEARER = { scheme: 'bearer', token: 'sk_live_51HqLyjWDarjtT1zdp7dc' } as const;

beforeEach(async () => {
  ({ store, keys } = storeForTest(ctx, { deliveryLogMax: 3 }));
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
});

const T0 = Date.parse('2024-05-01T10:00:00.000Z');
const record = (
  eventId: string,
  outcome: DeliveryRecord['outcome'] = 'delivered',
  at = T0,
): DeliveryRecord => ({
  event_id: eventId,
  event_type: 'call_created',
  outcome,
  duration_ms: 3,
  attempted_at: new Date(at).toISOString(),
});

describe('attempt ledger', () => {
  it('a first attempt gets the target with its credentials decrypted', async () => {
    const start = await store.attempts.begin(hook.id, 'evt_1');
    expect(start).toEqual({
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
  });

  it('an attempt begun but not finished is maybe_sent when the job runs again', async () => {
    await store.attempts.begin(hook.id, 'evt_1');
    expect(await store.attempts.begin(hook.id, 'evt_1')).toEqual({ kind: 'maybe_sent' });
  });

  it('a finished attempt is already_recorded when the job runs again, and its record is in the log once', async () => {
    await store.attempts.begin(hook.id, 'evt_1');
    await store.attempts.finish(hook.id, record('evt_1'));
    expect(await store.attempts.begin(hook.id, 'evt_1')).toEqual({ kind: 'already_recorded' });
    expect(await store.deliveryLog.list(hook.id, 10)).toEqual([record('evt_1')]);
  });

  it('the next event after a finished one is sent', async () => {
    await store.attempts.begin(hook.id, 'evt_1');
    await store.attempts.finish(hook.id, record('evt_1'));
    expect((await store.attempts.begin(hook.id, 'evt_2')).kind).toBe('send');
  });

  it('the log stays within its bound, newest first', async () => {
    for (const n of [1, 2, 3, 4]) {
      await store.attempts.begin(hook.id, `evt_${n}`);
      await store.attempts.finish(hook.id, record(`evt_${n}`));
    }
    const ids = (await store.deliveryLog.list(hook.id, 10)).map((r) => r.event_id);
    expect(ids).toEqual(['evt_4', 'evt_3', 'evt_2']);
  });

  it('a change to the hook reaches the next attempt (the cached target is by version)', async () => {
    await store.attempts.begin(hook.id, 'evt_1');
    await store.attempts.finish(hook.id, record('evt_1'));
    await store.hooks.update(
      hook.account_id,
      hook.id,
      {
        url: 'https://example.com/moved',
        auth: { scheme: 'basic', username: 'u', password: 'p' },
      },
      'test',
    );
    const start = await store.attempts.begin(hook.id, 'evt_2');
    expect(start).toMatchObject({
      kind: 'send',
      target: {
        url: 'https://example.com/moved',
        auth: { scheme: 'basic', username: 'u', password: 'p' },
        version: 2,
      },
    });
  });

  it('a deleted hook: nothing to send, and neither step leaves a key behind', async () => {
    await store.attempts.begin(hook.id, 'evt_1');
    await store.hooks.remove(hook.account_id, hook.id, 'test');
    await store.attempts.finish(hook.id, record('evt_1'));
    expect(await store.attempts.begin(hook.id, 'evt_2')).toEqual({ kind: 'hook_deleted' });
    expect(await ctx.redis.exists(keys.hookAttempt(hook.id), keys.hookDeliveries(hook.id))).toBe(0);
  });
});
