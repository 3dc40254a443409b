import { createRedis, PAUSED_FIELD, SUSPENSION_DUE_AFTER_MS } from '@hookline/redis';
import { uniquePrefix, useRedisCluster } from '@hookline/testing';
import { failFirst } from './test-support/fail-first';
import { hookWithJobs } from './test-support/hook-with-jobs';

// On a Redis Cluster the suspension-due set is on another shard than the hook's keys, so the outcome script
// that pauses a hook cannot point the monitor at it. The ledger puts the hook in the due set before the script
// runs, for every failure that may suspend: a worker killed right after the script, before the failure's
// stream entry, must not leave the hook paused with nobody ever recording its suspension.

jest.setTimeout(60000);

const shared = useRedisCluster(({ nodes }) => createRedis({ REDIS_URL: '', REDIS_CLUSTER_NODES: nodes }));

async function failOnce(threshold: number) {
  const { redis } = shared;
  const opened = await hookWithJobs(
    { prefix: uniquePrefix('finish-suspend-cluster'), redis },
    { suspensionRule: { threshold, windowMs: 0 } },
  );
  const { keys, hook, layout } = opened;
  const before = Date.now();
  await failFirst(opened);
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
