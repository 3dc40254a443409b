import { useRedis } from '@hookline/testing';
import { EgressWaits } from './egress-waits';
import { redisKeys } from './keys';

// What /readyz says of the egress proxy, fleet-wide, read between and after the writes of a kept-back try.
describe('egress waits: the fleet view', () => {
  const ctx = useRedis('egress');
  const at = new Date('2026-11-30T10:00:00Z');
  const refusal = (port: number) =>
    `the egress proxy 127.0.0.1:3128 refused CONNECT 127.0.0.1:${port}: 403 Access violation`;

  it("names the refusal from the moment it counts the hook, before the hook's own entry is written", async () => {
    const waits = new EgressWaits(ctx.redis, redisKeys(ctx.prefix));
    // Hold the second transaction of the try (the hook's entry) until the fleet view has been read.
    const multi = ctx.redis.multi.bind(ctx.redis);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const spy = jest.spyOn(ctx.redis, 'multi').mockImplementation(((...args: Parameters<typeof multi>) => {
      const tx = multi(...args);
      if (++calls === 2) {
        const exec = tx.exec.bind(tx);
        tx.exec = (async () => {
          await held;
          return exec();
        }) as typeof tx.exec;
      }
      return tx;
    }) as typeof ctx.redis.multi);
    try {
      const writing = waits.waiting('hk_a', refusal(443), at, 60_000);
      while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(await waits.get('hk_a')).toBeUndefined();
      expect(await waits.fleet(at)).toEqual({ hooks: 1, cause: 'refused', reason: refusal(443) });
      release();
      await writing;
    } finally {
      spy.mockRestore();
    }
    expect(await waits.get('hk_a')).toEqual({
      since: at.toISOString(),
      reason: refusal(443),
      cause: 'refused',
    });
  });

  it('names the latest try of the hooks still waiting, and nothing once none waits', async () => {
    const waits = new EgressWaits(ctx.redis, redisKeys(ctx.prefix));
    await waits.waiting('hk_a', refusal(443), at, 60_000);
    const later = new Date(at.getTime() + 1000);
    await waits.waiting(
      'hk_b',
      'the egress proxy 127.0.0.1:3128 cannot be reached: ECONNREFUSED',
      later,
      60_000,
      'unreachable',
    );
    expect(await waits.fleet(later)).toEqual({
      hooks: 2,
      cause: 'unreachable',
      reason: 'the egress proxy 127.0.0.1:3128 cannot be reached: ECONNREFUSED',
    });
    // hk_b's wait ends: the fleet's latest record names it no more, and hk_a's own entry says why it waits.
    await waits.clear('hk_b');
    expect(await waits.fleet(later)).toEqual({ hooks: 1, cause: 'refused', reason: refusal(443) });
    await waits.clear('hk_a');
    expect(await waits.fleet(later)).toBeUndefined();
    // A wait nobody renewed is over when its entry expires.
    await waits.waiting('hk_c', refusal(8443), at, 60_000);
    expect(await waits.fleet(new Date(at.getTime() + 60_001))).toBeUndefined();
  });
});
