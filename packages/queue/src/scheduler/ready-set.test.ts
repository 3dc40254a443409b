import { redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { ReadySet } from './ready-set';

describe('giving leases back', () => {
  const ctx = useRedis('ready-set');
  let keys: RedisKeys;
  let ready: ReadySet;

  beforeEach(() => {
    keys = redisKeys(ctx.prefix);
    ready = new ReadySet(ctx.redis, keys);
  });

  it('releases many hooks in one call, each only if the holder still has it; a resent release changes nothing', async () => {
    await ready.signal(['hk_a', 'hk_b', 'hk_c']);
    expect((await ready.claim([], 2, 10_000, 'w_1')).sort()).toEqual(['hk_a', 'hk_b']);
    expect(await ready.claim([], 1, 10_000, 'w_2')).toEqual(['hk_c']);

    expect(await ready.release(['hk_a', 'hk_c', 'hk_b'], 'w_1')).toEqual([true, false, true]);
    expect(await ready.status(['hk_a', 'hk_b', 'hk_c'])).toEqual(['none', 'none', 'leased']);
    expect(await ctx.redis.hkeys(keys.hookLeaseHolders())).toEqual(['hk_c']);

    expect(await ready.release(['hk_a', 'hk_b'], 'w_1')).toEqual([false, false]);
    expect(await ready.release([], 'w_1')).toEqual([]);
  });
});
