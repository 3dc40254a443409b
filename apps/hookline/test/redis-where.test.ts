import {
  startRedisSentinel,
  spawnEntry,
  TEST_REDIS_URL,
  useRedis,
  waitUntil,
  type RedisSentinelFixture,
} from '@hookline/testing';

// A worker that cannot find its Redis says where it looked (the setting, without a password) and, where the
// client's own words do not, what the error means: `Failed to refresh slots cache.` alone names neither
// REDIS_CLUSTER_NODES nor the seed that is not a cluster node; `All sentinels are unreachable` is said of
// sentinels that answered but know no primary of that name.
describe('a worker whose Redis settings point at the wrong thing', () => {
  const ctx = useRedis('redis-where');
  let sentinel: RedisSentinelFixture;
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 0, sentinels: 1 });
  }, 30000);
  afterAll(() => sentinel?.stop());

  /** The worker's `redis connection error` lines: its own connection's and its blocking reader's, at least. */
  async function workerLines(env: Record<string, string>): Promise<Record<string, unknown>[]> {
    const worker = spawnEntry('apps/hookline/src/worker-main.ts', {
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: 'a'.repeat(64),
      HOOKLINE_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    });
    ctx.onCleanup(async () => {
      worker.kill('SIGKILL');
      await worker.exited;
    });
    const lines = () =>
      worker
        .output()
        .split('\n')
        .filter((l) => l.includes('redis connection error'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    return waitUntil(() => (lines().length >= 2 ? lines() : undefined), 'two connections to log their error');
  }

  it('REDIS_CLUSTER_NODES naming a server that is not a cluster node', async () => {
    const seed = new URL(TEST_REDIS_URL);
    const lines = await workerLines({ REDIS_CLUSTER_NODES: `${seed.hostname}:${seed.port || 6379}` });
    // Every connection's line says where it looked, not only the first one's.
    for (const line of lines)
      expect(line).toMatchObject({
        redis: `REDIS_CLUSTER_NODES=${seed.hostname}:${seed.port || 6379}`,
        hint: expect.stringContaining('a seed is not a Redis Cluster node'),
      });
  }, 30000);

  it('REDIS_SENTINEL_MASTER naming a primary the sentinels do not know', async () => {
    const lines = await workerLines({
      REDIS_URL: 'redis://:Secr3tPass@sentinel',
      REDIS_SENTINELS: sentinel.sentinelList,
      REDIS_SENTINEL_MASTER: 'nosuchmaster',
    });
    for (const line of lines)
      expect(line).toMatchObject({
        redis: `REDIS_SENTINELS=${sentinel.sentinelList} REDIS_SENTINEL_MASTER=nosuchmaster`,
        hint: 'the sentinels answer but know no primary named "nosuchmaster": check REDIS_SENTINEL_MASTER',
      });
    expect(JSON.stringify(lines)).not.toContain('Secr3tPass');
  }, 30000);
});
