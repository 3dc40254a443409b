import { HookQueues, redisKeys } from '@hookline/redis';
import { startRedisSentinel, usePostgres, useRedis, type RedisSentinelFixture } from '@hookline/testing';
import { callCreated } from './test-support/api-harness';
import { accountWithHook, failoverApi } from './test-support/failover-api';

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
    const { redis, call } = await failoverApi(ctx, pg, primary, { HOOKLINE_REDIS_REPLICA_ACKS: '1' });
    const { acct, hook } = await accountWithHook(call);
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
    // Redis itself answers (/readyz says so): the answer names what was missing.
    expect(refused.json().error).toEqual({
      code: 'REDIS_UNAVAILABLE',
      message:
        'Redis did not confirm the write on enough replicas in time (1 replica acknowledgement required ' +
        '(HOOKLINE_REDIS_REPLICA_ACKS), 0 received within 1000 ms); it may have been kept: retry with the same ' +
        'request',
    });

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
