import { Cluster } from 'ioredis';
import {
  startRedisCluster,
  startRedisSentinel,
  waitUntil,
  type RedisClusterFixture,
  type RedisSentinelFixture,
} from '@hookline/testing';
import { createFailFastRedis, createRedis } from './connection';
import { FAILOVER_BUDGET_MS } from './failover';
import { callAcknowledged, ReplicaAcksMissingError, requireReplicaAcks } from './replica-acks';

// A primary killed with SIGKILL and its replica promoted: hookline's clients wait the promotion out and the
// command issued meanwhile succeeds, on the promoted replica. Real redis-server processes on ports of their
// own; cluster-node-timeout 2000 promotes in 3–5 s, within FAILOVER_BUDGET_MS.
describe('a Redis Cluster master killed and its replica promoted', () => {
  let cluster: RedisClusterFixture;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 2000 });
  }, 60000);
  afterAll(() => cluster?.stop());

  it('WAIT reaches the node of the written slot, on every shard', async () => {
    const redis = requireReplicaAcks(createRedis({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes }), 1);
    try {
      const tags = ['{a}', '{b}', '{c}', '{d}', '{e}', '{f}'];
      for (const tag of tags) {
        const { unacknowledged } = await callAcknowledged(redis, 'SET', `${tag}:k`, [tag]);
        expect(unacknowledged).toBeUndefined();
      }
      const slots = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', '{a}:k'));
      const port = slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
      const [replica] = await cluster.replicasOf(cluster.servers.find((s) => s.port === port)!);
      replica!.freeze();
      try {
        const { unacknowledged } = await callAcknowledged(redis, 'SET', '{a}:k', ['unacknowledged']);
        expect(unacknowledged).toBeInstanceOf(ReplicaAcksMissingError);
      } finally {
        replica!.thaw();
      }
    } finally {
      redis.disconnect();
    }
  }, 30000);

  it("a worker's client waits it out; ioredis' own retry budget does not", async () => {
    const target = { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes };
    const redis = createRedis(target);
    // ioredis' defaults (16 redirections 100 ms apart), what hookline used before.
    const plain = new Cluster(
      cluster.nodes.map((n) => ({ ...n })),
      {
        redisOptions: { maxRetriesPerRequest: null },
      },
    );
    for (const client of [redis, plain]) client.on('error', () => undefined);
    try {
      await redis.set('{failover}:k', 'before');
      await plain.get('{failover}:k');
      const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', '{failover}:k'));
      const slots = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const port = slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
      const master = cluster.servers.find((s) => s.port === port)!;
      const [replica] = await cluster.replicasOf(master);
      expect(replica).toBeDefined();

      await master.kill();
      const killedAt = Date.now();
      const [ours, theirs] = await Promise.allSettled([
        redis.set('{failover}:k', 'after').then(() => Date.now() - killedAt),
        plain.set('{failover}:k', 'plain'),
      ]);
      expect(ours).toEqual({ status: 'fulfilled', value: expect.any(Number) });
      expect(theirs.status).toBe('rejected');
      expect(await replica!.role()).toBe('master');
      expect(await replica!.call((r) => r.call('GET', '{failover}:k').catch(() => 'moved'))).not.toBe(
        'plain',
      );
      expect(await redis.get('{failover}:k')).toBe('after');
      // For the report: how long the write waited (the promotion), within the budget.
      expect((ours as PromiseFulfilledResult<number>).value).toBeLessThan(FAILOVER_BUDGET_MS);
    } finally {
      redis.disconnect();
      plain.disconnect();
    }
  }, 60000);
});

describe('a primary behind Redis Sentinel killed and its replica promoted', () => {
  let sentinel: RedisSentinelFixture;
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 1, sentinels: 3, downAfterMs: 1000, password: 's3cret' });
  }, 60000);
  afterAll(() => sentinel?.stop());

  it('every process finds the new primary: commands wait, the fail-fast client says "not serving"', async () => {
    const target = {
      REDIS_URL: sentinel.redisUrl,
      REDIS_CLUSTER_NODES: [],
      REDIS_SENTINELS: sentinel.sentinels.map((s) => ({ host: s.host, port: s.port })),
      REDIS_SENTINEL_MASTER: sentinel.masterName,
    };
    const redis = createRedis(target);
    const api = createFailFastRedis(target);
    for (const client of [redis, api]) client.on('error', () => undefined);
    try {
      await redis.set('k', 'before');
      await waitUntil(async () => api.status === 'ready', 'the fail-fast client ready', 5000);
      expect(await api.get('k')).toBe('before');
      const primary = await sentinel.primary();
      expect(primary).toBe(sentinel.servers[0]);

      await primary.kill();
      const answers = await api.get('k').then(
        (value) => ({ ok: true, value }),
        (error: Error) => ({ ok: false, value: error.message }),
      );
      // Either the read raced the kill, or it was refused at once as an outage (the API turns it into 503).
      if (!answers.ok)
        expect(answers.value).toMatch(/Stream isn't writeable|Connection is closed|ECONNREFUSED/);
      await redis.set('k', 'after');
      expect(await sentinel.primary()).toBe(sentinel.servers[1]);
      expect(await sentinel.servers[1]!.call((r) => r.get('k'))).toBe('after');
      await waitUntil(async () => api.status === 'ready', 'the fail-fast client back', 10000);
      expect(await api.get('k')).toBe('after');
    } finally {
      redis.disconnect();
      api.disconnect();
    }
  }, 60000);
});
