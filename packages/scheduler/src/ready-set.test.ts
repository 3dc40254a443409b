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

  it('a signal while the lease is live is remembered, and giving the lease back puts the hook into the ready set', async () => {
    await ready.signal(['hk_a', 'hk_b']);
    expect((await ready.claim([], 2, 10_000, 'w_1')).sort()).toEqual(['hk_a', 'hk_b']);
    await ready.signal(['hk_a']); // an event for hk_a after its holder may have seen the queue empty
    expect(await ready.status(['hk_a', 'hk_b'])).toEqual(['leased', 'leased']);
    expect(await ready.release(['hk_a', 'hk_b'], 'w_1')).toEqual([true, true]);
    expect(await ready.status(['hk_a', 'hk_b'])).toEqual(['signalled', 'none']);
    expect(await ctx.redis.smembers(keys.signalledWhileLeased())).toEqual([]);
  });

  it('a new holding, or a lease taken back after it expired, clears the mark (its queue is read afresh)', async () => {
    await ready.signal(['hk_a', 'hk_b']);
    await ready.claim([], 2, 10_000, 'w_1');
    await ready.signal(['hk_a', 'hk_b']);
    await ready.release(['hk_a'], 'w_1');
    expect(await ready.claim([], 1, 10_000, 'w_2')).toEqual(['hk_a']);
    expect(await ctx.redis.smembers(keys.signalledWhileLeased())).toEqual(['hk_b']);
    // hk_b's holder froze: its lease expires and any process puts the hook back.
    await ctx.redis.zadd(keys.hookLeases(), 1, 'hk_b');
    expect(await ready.reclaimExpired()).toEqual(['hk_b']);
    expect(await ctx.redis.smembers(keys.signalledWhileLeased())).toEqual([]);
    expect(await ready.release(['hk_a'], 'w_2')).toEqual([true]);
    expect(await ready.status(['hk_a', 'hk_b'])).toEqual(['none', 'signalled']);
  });

  it("a hook popped while another holder's lease is live is marked, not lost", async () => {
    await ready.signal(['hk_a']);
    await ready.claim([], 1, 10_000, 'w_1');
    await ctx.redis.zadd(keys.readyHooks(), Date.now(), 'hk_a'); // signalled by an older producer, say
    expect(await ready.claim([], 1, 10_000, 'w_2')).toEqual([]);
    expect(await ready.release(['hk_a'], 'w_1')).toEqual([true]);
    expect(await ready.status(['hk_a'])).toEqual(['signalled']);
  });
});
