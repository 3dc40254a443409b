import { randomBytes } from 'node:crypto';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox, type AttemptLedger } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, useRedis, waitUntil } from '@hookline/testing';
import { startWorker } from '../src';

// A Redis failover can fail the write of an outcome after the request left: the job stays active under its
// lock, with the attempt marked. The worker gives the hook up, and claims it again moments later in the same
// process. That new taking must not pass for the old one (the scripts hand a job back, and allow a send, to
// the caller showing the lock's own token): the event reached the endpoint once and must never go again.
describe('an outcome that could not be written', () => {
  const ctx = useRedis('failed-write');

  it('is never sent again by the same process when it takes the hook again', async () => {
    const receiver = await startReceiver();
    ctx.onCleanup(() => receiver.close());
    const keys = redisKeys(ctx.prefix);
    const hookQueues = new HookQueues(ctx.redis, keys);
    const store = createStore({
      redis: ctx.redis,
      keys,
      secretBox: SecretBox.fromKey(randomBytes(32)),
      hookQueues,
    });
    let failures = 0;
    const ledger = store.attempts;
    const attempts: AttemptLedger = {
      begin: (...args) => ledger.begin(...args),
      release: (...args) => ledger.release(...args),
      finish: async (...args) => {
        // The first outcome's write fails, as it does while a primary is down and no replica promoted yet.
        if (failures === 0) {
          failures += 1;
          throw new Error("READONLY You can't write against a read only replica.");
        }
        return ledger.finish(...args);
      },
    };
    const worker = startWorker({
      config: {
        HOOKLINE_DELIVERY_TIMEOUT_MS: 1000,
        HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
        HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
        HOOKLINE_WORKER_MAX_HOOKS: 8,
      },
      redis: ctx.redis,
      keys,
      store: { attempts },
      metrics: createMetrics(),
      logger: createLogger('silent', 'test'),
      // The write is not tried again here: the job is left active, as when Redis stays away past the retries.
      timings: { lockMs: 3500, outcomeRetryMs: 0 },
    });
    ctx.onCleanup(() => worker.close());
    const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys }));

    const account = await store.accounts.create({ name: 'Failover' });
    const hook = await store.hooks.create(account.id, { url: receiver.url(), format: 'json' }, 'operator');
    await producer.publish(account.id, {
      type: 'call_created',
      data: { ...SAMPLE_CALL_DATA, call_id: 'first' },
    });
    await receiver.waitFor(1);
    await producer.publish(account.id, {
      type: 'call_created',
      data: { ...SAMPLE_CALL_DATA, call_id: 'second' },
    });
    await waitUntil(
      async () => (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 2,
      'both events recorded in the history outbox',
      20000,
    );

    const callIds = receiver.requests.map(
      (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
    );
    expect(callIds).toEqual(['first', 'second']);
    const recorded = (await ctx.redis.lrange(keys.hookHistoryOutbox(hook.id), 0, -1)).map(
      (entry) => JSON.parse(entry) as { event_fields: Record<string, string>; outcome: string },
    );
    // Once each: the first as `unknown` (the take-over cannot know it arrived), the second delivered.
    expect(recorded.map((r) => [r.event_fields.call_id, r.outcome]).sort()).toEqual([
      ['first', 'unknown'],
      ['second', 'delivered'],
    ]);
    expect(failures).toBe(1);
  }, 30000);
});
