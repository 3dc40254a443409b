import { setTimeout as sleep } from 'node:timers/promises';
import { HookQueues, redisKeys, SENTINEL_REQUEST_WAIT_MS } from '@hookline/redis';
import {
  startRedisSentinel,
  usePostgres,
  useRedis,
  waitUntil,
  type RedisSentinelFixture,
} from '@hookline/testing';
import { callCreated } from './test-support/api-harness';
import { accountWithHook, failoverApi } from './test-support/failover-api';

// The API through Redis Sentinel, while the primary is killed (SIGKILL) and its replica promoted: a publish
// that arrives while the client looks for the new primary waits for it (up to SENTINEL_REQUEST_WAIT_MS) and
// is accepted, or answers 503; never 500. Real redis-server and sentinel processes on ports of their own.
describe('the API during a Sentinel failover', () => {
  let sentinel: RedisSentinelFixture;
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 1, sentinels: 3, downAfterMs: 1000, password: 's3cret' });
  }, 60000);
  afterAll(() => sentinel?.stop());

  const ctx = useRedis('primarywait');
  const pg = usePostgres('primarywait');

  it('a publish during the promotion is accepted once the new primary is found, or 503; never 500', async () => {
    const { redis, call } = await failoverApi(ctx, pg, sentinel);
    const { acct, hook } = await accountWithHook(call);

    const primary = await sentinel.primary();
    await primary.kill();
    await waitUntil(async () => redis.status !== 'ready', 'the client to see its primary gone', 5000);
    // A publish every 200 ms from the kill until well after the promotion, each noted with whether the
    // client was connected when it was sent.
    const answers: Promise<{ id: string; duringOutage: boolean; status: number; ms: number }>[] = [];
    for (let i = 0; i < 30; i++) {
      const id = `during-${i}`;
      const duringOutage = redis.status !== 'ready';
      const started = Date.now();
      answers.push(
        call('POST', `/v1/accounts/${acct}/events`, { id, type: 'call_created', data: callCreated() }).then(
          (res) => ({ id, duringOutage, status: res.statusCode, ms: Date.now() - started }),
        ),
      );
      await sleep(200);
    }
    const results = await Promise.all(answers);
    const promotedTo = await sentinel.primary();
    expect(promotedTo).not.toBe(primary);

    expect(results.filter((r) => r.status !== 202 && r.status !== 503)).toEqual([]);
    // Requests sent while the client had no primary waited for the promoted one and were accepted (without
    // the wait every one of them answers 503 at once).
    expect(results.filter((r) => r.duringOutage && r.status === 202).length).toBeGreaterThan(0);
    // Bounded: none waited much past the wait (the margin is for a loaded machine, not a measurement).
    for (const r of results) expect(r.ms).toBeLessThan(SENTINEL_REQUEST_WAIT_MS + 5000);
    // Every accepted event is in its hook's queue on the new primary, once.
    const queue = new HookQueues(redis, redisKeys(ctx.prefix)).open(hook.id);
    ctx.onCleanup(() => queue.close());
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'], 0, -1, true);
    expect(jobs).toHaveLength(results.filter((r) => r.status === 202).length);
    console.log(
      `publishes during the failover: ${JSON.stringify(results.map((r) => [r.id, r.duringOutage, r.status, r.ms]))}`,
    );

    // No primary to be found at all (both data nodes gone): a request waits SENTINEL_REQUEST_WAIT_MS, then 503.
    await promotedTo.kill();
    await waitUntil(async () => redis.status !== 'ready', 'the client to see its primary gone', 5000);
    const started = Date.now();
    const refused = await call('POST', `/v1/accounts/${acct}/events`, {
      id: 'no-primary',
      type: 'call_created',
      data: callCreated(),
    });
    const waited = Date.now() - started;
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe('REDIS_UNAVAILABLE');
    expect(refused.headers['retry-after']).toBe('5');
    expect(waited).toBeGreaterThanOrEqual(SENTINEL_REQUEST_WAIT_MS - 50);
    expect(waited).toBeLessThan(SENTINEL_REQUEST_WAIT_MS + 5000);
    // The probes answer at once, without the wait.
    const probeStarted = Date.now();
    const ready = await call('GET', '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(Date.now() - probeStarted).toBeLessThan(SENTINEL_REQUEST_WAIT_MS);
  }, 90000);
});
