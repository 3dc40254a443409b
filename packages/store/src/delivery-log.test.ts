import type { DeliveryRecord } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { Store } from './create-store';
import { storeForTest } from './test-support/store-for-test';

const ctx = useRedis('store-log');
let keys: RedisKeys;
let store: Store;

beforeEach(() => {
  ({ store, keys } = storeForTest(ctx, { deliveryLogMax: 3, activityMax: 2 }));
});

const record = (n: number): DeliveryRecord => ({
  event_id: `evt_${n}`,
  event_type: 'call_created',
  outcome: n % 2 === 0 ? 'delivered' : 'failed',
  status_code: n % 2 === 0 ? 200 : 503,
  duration_ms: n,
  attempted_at: `2024-05-01T10:00:0${n}.000Z`,
  ...(n % 2 === 0 ? {} : { response_excerpt: 'Service Unavailable' }),
});

describe('delivery log', () => {
  it('keeps the newest records up to its bound, newest first', async () => {
    for (const n of [1, 2, 3, 4, 5]) await store.deliveryLog.append('hk_0000000000000000000a', record(n));
    expect(await store.deliveryLog.list('hk_0000000000000000000a', 10)).toEqual([
      record(5),
      record(4),
      record(3),
    ]);
    expect(await ctx.redis.llen(keys.hookDeliveries('hk_0000000000000000000a'))).toBe(3);
  });

  it('answers at most `limit` records, and none for a hook without deliveries', async () => {
    for (const n of [1, 2, 3]) await store.deliveryLog.append('hk_0000000000000000000a', record(n));
    expect(await store.deliveryLog.list('hk_0000000000000000000a', 2)).toEqual([record(3), record(2)]);
    expect(await store.deliveryLog.list('hk_0000000000000000000a', 0)).toEqual([]);
    expect(await store.deliveryLog.list('hk_0000000000000000000b', 5)).toEqual([]);
  });

  it('stays bounded when many workers append at once', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        store.deliveryLog.append('hk_0000000000000000000a', record(n % 10)),
      ),
    );
    expect(await ctx.redis.llen(keys.hookDeliveries('hk_0000000000000000000a'))).toBe(3);
  });
});

describe('activity feed', () => {
  it('keeps the newest entries up to its bound, newest first', async () => {
    const entry = (n: number) => ({
      kind: 'hook.updated' as const,
      at: `t${n}`,
      hook_id: 'hk_1',
      actor: 'operator',
    });
    for (const n of [1, 2, 3]) await store.activity.append('acct_0000000000000000000a', entry(n));
    expect(await store.activity.list('acct_0000000000000000000a', 10)).toEqual([entry(3), entry(2)]);
    expect(await store.activity.list('acct_0000000000000000000b', 10)).toEqual([]);
  });
});
