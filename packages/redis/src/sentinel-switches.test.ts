import { setTimeout as sleep } from 'node:timers/promises';
import { SentinelConnector } from 'ioredis';
import { startRedisSentinel, waitUntil, type RedisSentinelFixture } from '@hookline/testing';
import { createFailFastRedis, createRedis } from './connection';
import { untilReady } from './failover';
import { parseSwitch, watchPrimarySwitches, type PrimarySwitch } from './sentinel-switches';

// A primary behind Redis Sentinel that hangs (SIGSTOP) instead of dying: nothing closes its clients' sockets
// and no READONLY comes, so only the switch watcher can move them. The primary stays frozen until the end of
// the test (far longer than the promotion, ≈2–3 s with down-after 1000 ms): what the clients do meanwhile is
// what they would do while a paused VM stays paused.
const FROZEN_FOR_MS = 40_000;

/** Resolves `done` if `work` settles within `ms`, else `still waiting` (the work goes on; nothing is cancelled). */
async function within<T>(work: Promise<T>, ms: number): Promise<{ done: T } | 'still waiting'> {
  return Promise.race([work.then((done) => ({ done })), sleep(ms).then(() => 'still waiting' as const)]);
}

describe('a primary behind Redis Sentinel that hangs, and its replica promoted', () => {
  let sentinel: RedisSentinelFixture;
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 1, sentinels: 3, downAfterMs: 1000, password: 's3cret' });
  }, 60_000);
  afterAll(async () => {
    for (const server of sentinel?.servers ?? []) server.thaw();
    await sentinel?.stop();
  });

  it('every client, blocking ones too, leaves it for the new primary while it is still frozen', async () => {
    const target = {
      REDIS_URL: sentinel.redisUrl,
      REDIS_CLUSTER_NODES: [],
      REDIS_SENTINELS: sentinel.sentinels.map((s) => ({ host: s.host, port: s.port })),
      REDIS_SENTINEL_MASTER: sentinel.masterName,
    };
    const switches: PrimarySwitch[] = [];
    const watcher = watchPrimarySwitches(target, (change) => switches.push(change))!;
    const redis = createRedis(target);
    const blocking = redis.duplicate();
    const api = createFailFastRedis(target);
    for (const client of [redis, blocking, api]) client.on('error', () => undefined);
    const old = await sentinel.primary();
    try {
      await redis.set('k', 'before');
      expect(await untilReady(api, 5000)).toBe(true);
      await waitUntil(async () => blocking.status === 'ready', 'the blocking client ready', 5000);
      // In flight on the old primary when it freezes: a blocking pop, and a write sent just after.
      const popped = blocking.blpop('jobs', 0);
      await sleep(100);

      old.freeze();
      const frozenAt = Date.now();
      const written = redis.set('k', 'while frozen');
      await waitUntil(async () => (await sentinel.primary()) !== old, 'the replica promoted', 30_000);
      const promoted = await sentinel.primary();

      // Well before the old primary wakes: the write sent to it arrived on the new one, the fail-fast client
      // serves again, and the blocking pop waits on the new primary (a push there reaches it).
      expect(await within(written, FROZEN_FOR_MS / 2)).toEqual({ done: 'OK' });
      expect(await untilReady(api, FROZEN_FOR_MS / 2)).toBe(true);
      expect(await within(api.get('k'), 5000)).toEqual({ done: 'while frozen' });
      await promoted.call((r) => r.rpush('jobs', 'job-1'));
      expect(await within(popped, FROZEN_FOR_MS / 2)).toEqual({ done: ['jobs', 'job-1'] });
      expect(await promoted.call((r) => r.get('k'))).toBe('while frozen');
      expect(Date.now() - frozenAt).toBeLessThan(FROZEN_FOR_MS);
      expect(switches[0]).toMatchObject({
        from: { port: old.port },
        to: { port: promoted.port },
        left: expect.any(Number),
      });
      expect(switches.reduce((sum, s) => sum + s.left, 0)).toBeGreaterThanOrEqual(3);
    } finally {
      old.thaw();
      watcher.close();
      for (const client of [redis, blocking, api]) client.disconnect();
    }
  }, 90_000);
});

describe("ioredis' Sentinel connector, as sentinel-connector.ts relies on it", () => {
  it('asks one sentinel at a time through a resolve() of its own', () => {
    expect(typeof (SentinelConnector.prototype as unknown as { resolve?: unknown }).resolve).toBe('function');
  });

  it("reads +switch-master's message", () => {
    expect(parseSwitch('mymaster 127.0.0.1 6379 127.0.0.1 6380')).toEqual({
      name: 'mymaster',
      from: { host: '127.0.0.1', port: 6379 },
      to: { host: '127.0.0.1', port: 6380 },
    });
    expect(parseSwitch('mymaster 127.0.0.1')).toBeUndefined();
  });
});
