import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { HookSweep, sweepBatch, SWEEP_MAX, SWEEP_MIN } from './hook-sweep';

describe('sweeping every hook in bounded batches', () => {
  const ctx = useRedis('sweep');

  it('sizes batches so a sweep takes about half the stuck-after time, within bounds', () => {
    expect(sweepBatch(100_000, 60_000, 1000)).toBe(3334);
    expect(sweepBatch(50, 60_000, 1000)).toBe(SWEEP_MIN);
    expect(sweepBatch(10_000_000, 60_000, 1000)).toBe(SWEEP_MAX);
  });

  it('visits every hook across ticks, carrying its cursor, and says when a sweep ends', async () => {
    const keys = redisKeys(ctx.prefix);
    const all = Array.from({ length: 1000 }, (_, i) => `hk_${i}`);
    await ctx.redis.sadd(keys.allHooks(), ...all);
    const sweep = new HookSweep(ctx.redis, keys);
    const seen = new Set<string>();
    let ticks = 0;
    for (;;) {
      const { ids, sweepEnded } = await sweep.next(100);
      ticks += 1;
      expect(ids.length).toBeLessThan(300);
      for (const id of ids) seen.add(id);
      if (sweepEnded) break;
    }
    expect(seen.size).toBe(1000);
    expect(ticks).toBeGreaterThanOrEqual(4);
  });
});
