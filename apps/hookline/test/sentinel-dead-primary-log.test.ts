import { randomBytes } from 'node:crypto';
import { createRedis, redisWhere } from '@hookline/redis';
import { logRedisErrors } from '@hookline/telemetry';
import {
  spawnEntry,
  startRedisSentinel,
  TEST_DATABASE_URL,
  usePostgres,
  useRedis,
  waitUntil,
  type RedisSentinelFixture,
} from '@hookline/testing';

// Sentinels that answer but name a primary that is down (a failover under way; here one that never ends, there
// is no replica): ioredis says in turn `connect ECONNREFUSED <primary>` and `All sentinels are unreachable`,
// neither of which says that the sentinels answered. Each is logged once, with a hint, wherever it comes from.
describe('sentinels naming a primary that does not answer', () => {
  const ctx = useRedis('sentinel-dead-primary');
  const pg = usePostgres('sentinel_dead_primary');
  let sentinel: RedisSentinelFixture;
  const target = () => ({
    REDIS_URL: 'redis://sentinel',
    REDIS_CLUSTER_NODES: [],
    REDIS_SENTINELS: sentinel.sentinels.map((s) => ({ host: s.host, port: s.port })),
    REDIS_SENTINEL_MASTER: sentinel.masterName,
  });
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 0, sentinels: 1 });
    await sentinel.servers[0]!.kill();
  }, 30000);
  afterAll(() => sentinel?.stop());

  it('logs each of the alternating errors once, with a hint that a failover may be under way', async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const log = {
      warn: (fields: object, message: string) => lines.push({ fields: { ...fields }, message }),
      info: () => {},
    };
    const redis = createRedis(target());
    ctx.onCleanup(() => redis.disconnect());
    let errors = 0;
    redis.on('error', () => errors++);
    logRedisErrors(redis, log, redisWhere(target()));
    // Several rounds of both errors: the primary refused, then every sentinel asked.
    await waitUntil(() => errors >= 8 || undefined, 'ioredis to go round its errors several times');

    const primary = `${sentinel.servers[0]!.host}:${sentinel.servers[0]!.port}`;
    expect(lines.map((l) => (l.fields['err'] as Error).message.replace(/\d+ms/, 'Nms'))).toEqual([
      `connect ECONNREFUSED ${primary}`,
      'All sentinels are unreachable. Retrying from scratch after Nms.',
    ]);
    expect(lines.map((l) => l.fields['hint'])).toEqual([
      `the sentinels name ${primary} as the primary and it does not answer: a failover may be under way (with no replica to promote, it never ends)`,
      'the sentinels answer, but the primary they name does not: a failover may be under way (with no replica to promote, it never ends)',
    ]);
  }, 30000);

  it("the HTTP tier's lines, the admin board's included, say where Redis was looked for and give the hint", async () => {
    const http = spawnEntry('apps/hookline/src/http-main.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: 'redis://sentinel',
      REDIS_SENTINELS: sentinel.sentinelList,
      REDIS_SENTINEL_MASTER: sentinel.masterName,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_API_KEY: randomBytes(24).toString('hex'),
      HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
      HOOKLINE_ADMIN_PASSWORD: 'admin-password-1',
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      LOG_LEVEL: 'warn',
    });
    ctx.onCleanup(async () => {
      http.kill('SIGKILL');
      await http.exited;
    });
    const lines = () =>
      http
        .output()
        .split('\n')
        .filter((l) => l.includes('redis connection error'))
        .map((l) => JSON.parse(l) as { msg: string; redis?: string; hint?: string });
    const board = await waitUntil(
      () => lines().filter((l) => l.msg === 'admin board: redis connection error').length >= 2 || undefined,
      "the admin board's connection to log both errors",
    );
    expect(board).toBe(true);
    for (const line of lines())
      expect(line).toMatchObject({
        redis: `REDIS_SENTINELS=${sentinel.sentinelList} REDIS_SENTINEL_MASTER=${sentinel.masterName}`,
        hint: expect.stringContaining('a failover may be under way'),
      });
  }, 60000);
});
