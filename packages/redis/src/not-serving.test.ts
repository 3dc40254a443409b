import IORedis, { ReplyError } from 'ioredis';
import { startRedisSentinel, waitUntil, type RedisSentinelFixture } from '@hookline/testing';
import { StaleFanOutError } from './bullmq/fenced-add';
import { isNotServing, isRedisUnavailable, REPLICA_ACKS_MISSING } from './not-serving';

/** The error `promise` rejects with; fails the test when it resolves. */
async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the command succeeded; an error was expected');
}

const READY = { status: 'ready' } as const;

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
