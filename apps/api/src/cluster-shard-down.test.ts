import { Cluster } from 'ioredis';
import {
  startRedisCluster,
  usePostgres,
  useRedis,
  waitUntil,
  type RedisClusterFixture,
} from '@hookline/testing';
import { isRedisUnavailable } from '@hookline/redis';
import { callCreated } from './test-support/api-harness';
import { errorOf, failoverApi } from './test-support/failover-api';

const READY = { status: 'ready' } as const;

describe('a Redis Cluster with a shard down', () => {
  let cluster: RedisClusterFixture;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 1000 });
  }, 30000);
  afterAll(() => cluster?.stop());

  const ctx = useRedis('unavailable');
  const pg = usePostgres('unavailable');

  it('gives CLUSTERDOWN bare and wrapped by the Cluster client; the API answers 503, never 500', async () => {
    const { call } = await failoverApi(ctx, pg, cluster);
    const created = await call('POST', '/v1/accounts', { name: 'Acme' });
    expect(created.statusCode).toBe(201);
    const acct = (created.json() as { id: string }).id;

    // The Cluster client retries CLUSTERDOWN, then gives up with its own wrapping (a short budget here).
    const survivor = cluster.servers[0]!;
    const client = new Cluster([{ host: survivor.host, port: survivor.port }], {
      maxRedirections: 2,
      retryDelayOnClusterDown: 50,
    });
    client.on('error', () => undefined);
    await waitUntil(async () => client.status === 'ready', 'the test client ready', 10000);

    // One master gone for good (no replica): the cluster stops serving every slot.
    await cluster.servers[2]!.kill();
    await waitUntil(
      () =>
        survivor.call(async (r) => String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:fail')),
      'the cluster to declare itself down',
      15000,
    );
    const bare = await errorOf(survivor.call((r) => r.get('any')));
    expect(bare.message).toMatch(/^CLUSTERDOWN/);
    expect(isRedisUnavailable(bare, READY)).toBe(true);
    try {
      const wrapped = await errorOf(client.get('any'));
      expect(wrapped.message).toMatch(/^Too many Cluster redirections/);
      expect(isRedisUnavailable(wrapped, READY)).toBe(true);
    } finally {
      client.disconnect();
    }

    // hookline's own client waits out its failover budget, then the API answers 503 with Retry-After.
    for (const res of [
      await call('POST', `/v1/accounts/${acct}/events`, { type: 'call_created', data: callCreated() }),
      await call('GET', `/v1/accounts/${acct}/hooks`),
    ]) {
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('REDIS_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('5');
    }
  }, 60000);
});
