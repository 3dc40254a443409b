import { HookJobAdder, hookQueueLayout, redisKeys, type RedisKeys } from '@hookline/redis';
import { connectRedis, useRedis } from '@hookline/testing';
import type { Redis } from 'ioredis';
import { DEDUPE_AFTER_DONE_MS, DEDUPE_TTL_MS } from '../jobs';
import { DedupeCuts } from './dedupe-cuts';

// The cuts run after the publish's answer, so closing must wait for them: the caller lets the connection go
// next. Held back by a BLPOP sent first on their connection (Redis answers one connection in order), the cuts
// are under way for as long as the test decides, on a real Redis.
describe('deduplication cuts after the answer', () => {
  const ctx = useRedis('dedupe-cuts');
  const hooks = ['hk_a', 'hk_b'];
  let keys: RedisKeys;
  let held: Redis;
  let gate: string;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    gate = `${ctx.prefix}:gate`;
    held = connectRedis();
    ctx.onCleanup(() => held.disconnect());
    for (const hookId of hooks) await ctx.redis.set(dedupeKey(hookId), 'evt_1', 'PX', DEDUPE_TTL_MS);
    // Every command sent on `held` from now on waits until the gate opens.
    held.blpop(gate, 0).catch(() => undefined);
  });

  const dedupeKey = (hookId: string) => hookQueueLayout(keys, hookId).deduplication('evt_1');
  const ttls = () => Promise.all(hooks.map((hookId) => ctx.redis.pttl(dedupeKey(hookId))));
  const cutsOnHeld = () => new DedupeCuts(new HookJobAdder(held, keys));
  const settledWithin = async (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  it('closing waits for the cuts under way, and they are all done when it resolves', async () => {
    const cuts = cutsOnHeld();
    cuts.start(hooks, 'evt_1');
    const closing = cuts.close(10_000);
    expect(await settledWithin(closing, 300)).toBe(false);
    for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);

    await ctx.redis.lpush(gate, 'open');
    await closing;
    for (const ttl of await ttls()) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(DEDUPE_AFTER_DONE_MS);
    }
  });

  it('closing gives up after its bound, and a cut that then fails rejects nowhere', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const cuts = cutsOnHeld();
      cuts.start(hooks, 'evt_1');
      const startedAt = Date.now();
      await cuts.close(200);
      expect(Date.now() - startedAt).toBeLessThan(2000);
      // The connection goes while the cut waits: its commands fail, the keys keep their hour.
      held.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('closes at once with nothing under way', async () => {
    const cuts = new DedupeCuts(new HookJobAdder(ctx.redis, keys));
    cuts.start([], 'evt_1');
    expect(await settledWithin(cuts.close(10_000), 100)).toBe(true);
  });
});
