import type { AddressInfo } from 'node:net';
import IORedis, { Cluster, ReplyError } from 'ioredis';
import { loadConfig } from '@hookline/config';
import { openHistory } from '@hookline/history';
import { createFailFastRedis, HookQueues, redisKeys, StaleFanOutError } from '@hookline/redis';
import { createLogger, createMetrics } from '@hookline/telemetry';
import {
  startRedisCluster,
  startRedisSentinel,
  TEST_DATABASE_URL,
  usePostgres,
  useRedis,
  waitUntil,
  type RedisClusterFixture,
  type RedisSentinelFixture,
} from '@hookline/testing';
import { buildApp } from './app';
import { createApiDeps } from './test-support/api-deps';
import { API_KEY, callCreated, SECRET_KEY } from './test-support/api-harness';
import { httpCall } from './test-support/http-call';
import { isNotServing, isRedisUnavailable, REPLICA_ACKS_MISSING } from './redis-unavailable';

const READY = { status: 'ready' } as const;

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the command succeeded; an error was expected');
}

// Each "not serving" form as real servers produce it, recognised while the client itself is `ready` (a
// Cluster client stays ready while one shard is down, so the client's state cannot be relied on).
describe('Redis errors that mean "not serving now"', () => {
  let replication: RedisSentinelFixture;
  beforeAll(async () => {
    replication = await startRedisSentinel({ replicas: 1, sentinels: 0 });
  }, 30000);
  afterAll(() => replication?.stop());

  it('READONLY: a write sent to a replica (a demoted primary)', async () => {
    const error = await errorOf(replication.servers[1]!.call((r) => r.set('k', 'v')));
    expect(error.message).toMatch(/^READONLY/);
    expect(isRedisUnavailable(error, READY)).toBe(true);
  });

  it('NOREPLICAS: a primary with fewer replicas than min-replicas-to-write', async () => {
    const primary = replication.servers[0]!;
    await primary.call((r) => r.config('SET', 'min-replicas-to-write', '2'));
    try {
      const error = await errorOf(primary.call((r) => r.set('k', 'v')));
      expect(error.message).toMatch(/^NOREPLICAS/);
      expect(isRedisUnavailable(error, READY)).toBe(true);
    } finally {
      await primary.call((r) => r.config('SET', 'min-replicas-to-write', '0'));
    }
  });

  it('MASTERDOWN: a replica that lost its primary and does not serve stale data', async () => {
    const replica = replication.servers[1]!;
    await replica.call(async (r) => {
      await r.config('SET', 'replica-serve-stale-data', 'no');
      await r.call('REPLICAOF', '127.0.0.1', '1');
    });
    const error = await errorOf(replica.call((r) => r.get('k')));
    expect(error.message).toMatch(/^MASTERDOWN/);
    expect(isRedisUnavailable(error, READY)).toBe(true);
  });

  // Neither is practical to provoke on demand (LOADING needs a data set that takes long to load, TRYAGAIN a
  // slot migration in progress): the server's own words, in ioredis' own error class.
  it.each([
    'LOADING Redis is loading the dataset in memory',
    'TRYAGAIN Multiple keys request during rehashing of slot',
  ])('%s', (message) => {
    expect(isRedisUnavailable(new ReplyError(message), READY)).toBe(true);
  });

  // Seen in the cluster fleet test: a command cut off by the failover, from ioredis' redis-errors AbortError.
  it('a command aborted by a closed connection, whatever its class', () => {
    const aborted = Object.assign(Object.create(null) as object, {
      name: 'AbortError',
      message: 'Command aborted due to connection close',
    });
    expect(isRedisUnavailable(aborted, READY)).toBe(true);
  });

  it('a write the replicas did not acknowledge in time', () => {
    const error = new Error('1 replica acknowledgement required, 0 received within 1000 ms');
    error.name = REPLICA_ACKS_MISSING;
    expect(isRedisUnavailable(error, READY)).toBe(true);
  });

  it('a fan-out refused because its process stalled (the entry waits for the retry)', () => {
    expect(isRedisUnavailable(new StaleFanOutError('hk_1', 30_000), READY)).toBe(true);
  });

  it('but not a bug: a wrong type, a script error, a syntax error', async () => {
    const primary = replication.servers[0]!;
    await primary.call((r) => r.set('text', 'x'));
    for (const command of [
      (r: IORedis) => r.lpush('text', 'y'),
      (r: IORedis) => r.eval("return redis.call('NOPE')", 0),
      (r: IORedis) => r.call('SET'),
    ]) {
      const error = await errorOf(primary.call(command));
      expect(isRedisUnavailable(error, READY)).toBe(false);
    }
  });
});

describe('Sentinel errors', () => {
  it('"All sentinels are unreachable" and "failed to connect to sentinel"', async () => {
    const client = new IORedis({
      sentinels: [{ host: '127.0.0.1', port: 1 }],
      name: 'mymaster',
      sentinelRetryStrategy: () => 100,
      lazyConnect: true,
    });
    const seen: Error[] = [];
    client.on('error', (error: Error) => seen.push(error));
    client.on('sentinelError', (error: Error) => seen.push(error));
    client.connect().catch(() => undefined);
    try {
      await waitUntil(
        async () =>
          seen.some((e) => /All sentinels are unreachable/.test(e.message)) &&
          seen.some((e) => /failed to connect to sentinel/i.test(e.message)),
        'both sentinel errors',
        5000,
      );
    } finally {
      client.disconnect();
    }
    for (const error of seen) expect(isNotServing(error)).toBe(true);
  });
});

describe('a Redis Cluster with a shard down', () => {
  let cluster: RedisClusterFixture;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 1000 });
  }, 30000);
  afterAll(() => cluster?.stop());

  const ctx = useRedis('unavailable');
  const pg = usePostgres('unavailable');

  it('gives CLUSTERDOWN bare and wrapped by the Cluster client; the API answers 503, never 500', async () => {
    const config = loadConfig(
      {
        HOOKLINE_API_KEY: API_KEY,
        HOOKLINE_SECRET_KEY: SECRET_KEY,
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        DATABASE_URL: TEST_DATABASE_URL,
        REDIS_CLUSTER_NODES: cluster.seeds,
        LOG_LEVEL: 'silent',
      },
      'api',
    );
    const redis = createFailFastRedis(config);
    redis.on('error', () => undefined);
    ctx.onCleanup(() => redis.disconnect());
    const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => history.close());
    const deps = createApiDeps(
      config,
      redis,
      createLogger('silent', 'api-test'),
      createMetrics(),
      history.client,
    );
    ctx.onCleanup(() => deps.producer.close());
    ctx.onCleanup(() => deps.closeProbes());
    const app = buildApp(deps);
    ctx.closeLater(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const call = (method: string, path: string, body?: unknown) =>
      httpCall(port, {
        method,
        path,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
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

describe('a publish the replicas did not acknowledge (HOOKLINE_REDIS_REPLICA_ACKS=1)', () => {
  let redisPair: RedisSentinelFixture;
  beforeAll(async () => {
    redisPair = await startRedisSentinel({ replicas: 1, sentinels: 0 });
  }, 30000);
  afterAll(() => redisPair?.stop());

  const ctx = useRedis('acks');
  const pg = usePostgres('acks');

  it('answers 503; the retry with the same id is accepted once the replica is back, one job', async () => {
    const primary = redisPair.servers[0]!;
    const config = loadConfig(
      {
        HOOKLINE_API_KEY: API_KEY,
        HOOKLINE_SECRET_KEY: SECRET_KEY,
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        DATABASE_URL: TEST_DATABASE_URL,
        REDIS_URL: `redis://${primary.host}:${primary.port}`,
        HOOKLINE_REDIS_REPLICA_ACKS: '1',
        LOG_LEVEL: 'silent',
      },
      'api',
    );
    const redis = createFailFastRedis(config);
    ctx.onCleanup(() => redis.disconnect());
    await waitUntil(async () => redis.status === 'ready', 'the API client ready', 5000);
    const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => history.close());
    const deps = createApiDeps(
      config,
      redis,
      createLogger('silent', 'api-test'),
      createMetrics(),
      history.client,
    );
    ctx.onCleanup(() => deps.producer.close());
    ctx.onCleanup(() => deps.closeProbes());
    const app = buildApp(deps);
    ctx.closeLater(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const call = (method: string, path: string, body?: unknown) =>
      httpCall(port, {
        method,
        path,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const acct = ((await call('POST', '/v1/accounts', { name: 'Acme' })).json() as { id: string }).id;
    const hook = (
      await call('POST', `/v1/accounts/${acct}/hooks`, {
        url: 'https://hooks.example.com/in',
        format: 'json',
      })
    ).json() as { id: string };
    const event = { id: 'order-42', type: 'call_created', data: callCreated() };

    const replica = redisPair.servers[1]!;
    replica.freeze();
    let refused;
    try {
      refused = await call('POST', `/v1/accounts/${acct}/events`, event);
    } finally {
      replica.thaw();
    }
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe('REDIS_UNAVAILABLE');

    // The first request's key and entry were kept (on the primary): the retry completes its fan-out and
    // answers as a repeat of an accepted event.
    const accepted = await call('POST', `/v1/accounts/${acct}/events`, event);
    expect(accepted.statusCode).toBe(200);
    const queue = new HookQueues(redis, redisKeys(ctx.prefix)).open(hook.id);
    ctx.onCleanup(() => queue.close());
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'], 0, -1, true);
    expect(jobs.map((job) => (job.data as { event: { id: string } }).event.id)).toEqual([
      (accepted.json() as { id: string }).id,
    ]);
    // On the replica too, as acknowledged.
    expect(
      await replica.call((r) =>
        r.exists(`${ctx.prefix}:${redisKeys(ctx.prefix).hookQueueName(hook.id)}:${jobs[0]!.id}`),
      ),
    ).toBe(1);
  }, 30000);
});
