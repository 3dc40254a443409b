import type { Redis } from 'ioredis';
import { HookQueues, redisKeys } from '@hookline/redis';
import {
  startRedisCluster,
  usePostgres,
  useRedis,
  waitUntil,
  type RedisClusterFixture,
  type RedisServerProcess,
} from '@hookline/testing';
import { callCreated } from './test-support/api-harness';
import { failoverApi } from './test-support/failover-api';

// HOOKLINE_REDIS_REPLICA_ACKS=1 on a Redis Cluster with a replica per master: the signal that tells the
// workers a hook has work (and writes it into the index of hooks with work, all the watchdog looks at) lives
// on the scheduler's shard, not the hook's. A publish whose jobs the hook's replicas acknowledged but whose
// signal the scheduler's replica did not answers 503 and keeps its inbox entry, so the retry with the same id
// signals again: a promoted replica without the signal would hold a job no worker is told of.
describe('a publish whose signal the replicas did not acknowledge', () => {
  let cluster: RedisClusterFixture;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 5000 });
  }, 60000);
  afterAll(() => cluster?.stop());

  const ctx = useRedis('signalacks');
  const pg = usePostgres('signalacks');

  it('answers 503 and keeps the entry; the retry is accepted once, signalled on the replica too', async () => {
    const { redis, call } = await failoverApi(ctx, pg, cluster, { HOOKLINE_REDIS_REPLICA_ACKS: '1' });
    const keys = redisKeys(ctx.prefix);
    const scheduler = await masterOf(redis, cluster, keys.readyHooks());

    // An account and a hook whose keys live on other shards than the scheduler's, so that only the signal's
    // acknowledgement is missing when the scheduler's replica is frozen.
    let acct = '';
    let hook = '';
    for (let i = 0; !hook; i++) {
      if (i > 40) throw new Error('no account and hook off the scheduler shard');
      const candidate = ((await call('POST', '/v1/accounts', { name: `Acme ${i}` })).json() as { id: string })
        .id;
      if ((await masterOf(redis, cluster, keys.accountInbox(candidate))) === scheduler) continue;
      const hookId = (
        (
          await call('POST', `/v1/accounts/${candidate}/hooks`, {
            url: 'https://hooks.example.com/in',
            format: 'json',
          })
        ).json() as { id: string }
      ).id;
      if ((await masterOf(redis, cluster, keys.hookRecord(hookId))) === scheduler) continue;
      [acct, hook] = [candidate, hookId];
    }
    // A first event, so the account is already in the recovery index (a write of its own, not acknowledged).
    expect(
      (await call('POST', `/v1/accounts/${acct}/events`, { type: 'call_created', data: callCreated() }))
        .statusCode,
    ).toBe(202);
    await redis.zrem(keys.readyHooks(), hook);

    const [replica] = await cluster.replicasOf(scheduler);
    const event = { id: 'order-7', type: 'call_created', data: callCreated() };
    replica!.freeze();
    let refused;
    try {
      refused = await call('POST', `/v1/accounts/${acct}/events`, event);
    } finally {
      replica!.thaw();
    }
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe('REDIS_UNAVAILABLE');
    // The jobs were acknowledged on their own shard, the entry stays for the retry (or recovery) to finish.
    expect(await redis.xlen(keys.accountInbox(acct))).toBe(1);

    const accepted = await call('POST', `/v1/accounts/${acct}/events`, event);
    expect(accepted.statusCode).toBe(200);
    // Deleted just after the answer, with the other entries done in the same moment.
    await waitUntil(async () => (await redis.xlen(keys.accountInbox(acct))) === 0, 'the entry deleted');
    const queue = new HookQueues(redis, keys).open(hook);
    ctx.onCleanup(() => queue.close());
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'], 0, -1, true);
    expect(
      jobs.filter((job) => (job.data as { event: { id: string } }).event.id === accepted.json().id),
    ).toHaveLength(1);
    // Signalled, and on the scheduler's replica too, as acknowledged.
    expect(await redis.zscore(keys.readyHooks(), hook)).not.toBeNull();
    const onReplica = (key: string) =>
      replica!.call(async (r) => {
        await r.call('READONLY'); // a cluster replica answers reads of its slots only when asked to
        return r.zscore(key, hook);
      });
    expect(await onReplica(keys.readyHooks())).not.toBeNull();
    expect(await onReplica(keys.hooksWithWork())).not.toBeNull();
  }, 60000);
});

/** The master serving `key`'s slot. */
async function masterOf(
  redis: Redis,
  cluster: RedisClusterFixture,
  key: string,
): Promise<RedisServerProcess> {
  const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', key));
  const slots = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const port = slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
  return cluster.servers.find((s) => s.port === port)!;
}
