import type { AttemptRecord } from '@hookline/core';
import { createRedis, PAUSED_FIELD, SUSPENSION_DUE_AFTER_MS } from '@hookline/redis';
import { startRedisCluster, uniquePrefix, type RedisClusterFixture } from '@hookline/testing';
import type { Redis } from 'ioredis';
import { hookWithJobs } from './test-support/hook-with-jobs';

// On a Redis Cluster the suspension-due set is on another shard than the hook's keys, so the outcome script
// that pauses a hook cannot point the monitor at it. The ledger puts the hook in the due set before the script
// runs, for every failure that may suspend: a worker killed right after the script, before the failure's
// stream entry, must not leave the hook paused with nobody ever recording its suspension.

jest.setTimeout(60000);

let cluster: RedisClusterFixture;
let redis: Redis;
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = createRedis({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes });
}, 60000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

async function failOnce(threshold: number) {
  const ctx = { prefix: uniquePrefix('finish-suspend-cluster'), redis };
  const { store, keys, hook, jobs, layout } = await hookWithJobs(ctx, {
    suspensionRule: { threshold, windowMs: 0 },
  });
  const offer = await jobs.take(hook.id, 'w:1');
  if (offer.kind !== 'job') throw new Error(`expected a job, got ${offer.kind}`);
  const job = offer.job;
  const fence = { jobId: job.id, token: job.token };
  expect((await store.attempts.begin(hook.id, job.id, fence)).kind).toBe('send');
  const record: AttemptRecord = {
    attempt_id: `att_${job.id}`,
    trigger: 'auto',
    account_id: hook.account_id,
    hook_id: hook.id,
    event_id: job.id,
    event_type: 'call_created',
    outcome: 'failed',
    status_code: 500,
    duration_ms: 3,
    attempted_at: new Date().toISOString(),
  };
  const before = Date.now();
  const done = await store.attempts.finishAndComplete(
    hook.id,
    record,
    fence,
    'failure',
    job.id,
    '{}',
    jobs.prepareFinish(job, { kind: 'failed', reason: 'failed 500' }, true),
  );
  expect(done.finished).toBe('recorded');
  return {
    before,
    paused: (await redis.hget(layout.meta, PAUSED_FIELD)) !== null,
    streak: await redis.hgetall(keys.hookStreak(hook.id)),
    dueAt: await redis.zscore(keys.suspensionDue(), hook.id),
  };
}

describe('a failure that suspends a hook, on a Redis Cluster', () => {
  it('leaves the hook in the due set, so the monitor records the suspension even without the stream entry', async () => {
    const { before, paused, streak, dueAt } = await failOnce(1);

    expect(paused).toBe(true);
    expect(streak).toMatchObject({ unrecorded: expect.any(String), lease_until: '0' });
    expect(Number(dueAt)).toBeGreaterThanOrEqual(before + SUSPENSION_DUE_AFTER_MS);
    expect(Number(dueAt)).toBeLessThanOrEqual(Date.now() + SUSPENSION_DUE_AFTER_MS);
  });

  it('points the monitor at a failure below the threshold too (it finds nothing to record and drops it)', async () => {
    const { paused, streak, dueAt } = await failOnce(2);

    expect(paused).toBe(false);
    expect(streak.unrecorded).toBeUndefined();
    expect(dueAt).not.toBeNull();
  });
});
