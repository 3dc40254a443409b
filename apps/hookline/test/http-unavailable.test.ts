import { randomBytes } from 'node:crypto';
import { loadConfig } from '@hookline/config';
import { answersWithin, createFailFastRedis } from '@hookline/redis';
import { createServices } from '@hookline/services';
import { createLogger, createMetrics } from '@hookline/telemetry';
import {
  startRedisCluster,
  TEST_DATABASE_URL,
  useRedis,
  waitUntil,
  type RedisClusterFixture,
} from '@hookline/testing';
import { buildHttpServer } from '../src/http-server';
import { openTestHistory } from './support/test-history';

jest.setTimeout(90000);

// A Redis Cluster that stops serving (a master gone with no replica to promote: CLUSTERDOWN) while its client
// stays `ready`: /readyz says so, and the website and the admin area answer 503 with Retry-After, as the API
// does, never a 500 page or Bull Board's raw error.
describe('the HTTP tier while a Redis Cluster is down', () => {
  let cluster: RedisClusterFixture;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 1000 });
  }, 30000);
  afterAll(() => cluster?.stop());
  const ctx = useRedis('http_down');

  it('is not ready, and answers 503 on the website and in the admin area', async () => {
    const config = loadConfig(
      {
        HOOKLINE_API_KEY: 'k'.repeat(32),
        HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        HOOKLINE_ADMIN_USER: 'ops',
        HOOKLINE_ADMIN_PASSWORD: 'admin-password-1',
        REDIS_CLUSTER_NODES: cluster.seeds,
        LOG_LEVEL: 'silent',
        // The history's database is opened by the test (its own schema); the setting only has to be there.
        DATABASE_URL: TEST_DATABASE_URL,
      },
      'api',
    );
    const redis = createFailFastRedis(config);
    redis.on('error', () => undefined);
    ctx.onCleanup(() => redis.disconnect());
    await waitUntil(async () => redis.status === 'ready', 'the cluster client ready', 10000);
    const history = await openTestHistory(ctx.onCleanup, 'http_down');
    const services = createServices({
      redis,
      settings: config,
      secretKey: randomBytes(32),
      historyDb: history.client,
    });
    ctx.onCleanup(() => services.close());
    const app = await buildHttpServer({
      config,
      redis,
      services,
      logger: createLogger('silent', 'test'),
      metrics: createMetrics(),
    });
    ctx.onCleanup(() => app.close());
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = { authorization: `Basic ${Buffer.from('ops:admin-password-1').toString('base64')}` };
    expect((await fetch(`${base}/login`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/admin/queues/api/queues`, { headers: admin })).status).toBe(200);

    const survivor = cluster.servers[0]!;
    await cluster.servers[2]!.kill();
    await waitUntil(
      () =>
        survivor.call(async (r) => String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:fail')),
      'the cluster to declare itself down',
      15000,
    );
    expect(redis.status).toBe('ready');
    // Ready no more, and why: every node still answers PING. The monitor's hookline_redis_up reads the same.
    const readyz = await fetch(`${base}/readyz`);
    expect(readyz.status).toBe(503);
    expect((await readyz.json()) as unknown).toMatchObject({
      error: {
        code: 'REDIS_UNAVAILABLE',
        details: [{ field: 'redis', message: expect.stringContaining('cluster_state:fail') }],
      },
    });
    await expect(answersWithin(redis, 2000)).resolves.toMatchObject({ ok: false });

    const [page, board] = await Promise.all([
      fetch(`${base}/login`),
      fetch(`${base}/admin/queues/api/queues`, { headers: admin }),
    ]);
    expect([page.status, page.headers.get('retry-after')]).toEqual([503, '5']);
    expect(await page.text()).toContain('Try again in a moment');
    expect([board.status, board.headers.get('retry-after')]).toEqual([503, '5']);
    expect(await board.json()).toMatchObject({ error: { code: 'REDIS_UNAVAILABLE' } });
  });
});
