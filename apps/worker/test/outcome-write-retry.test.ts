import { randomBytes } from 'node:crypto';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox, type AttemptLedger } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, useRedis, waitUntil } from '@hookline/testing';
import { startWorker } from '../src';

// While a Redis primary is being replaced, writing an outcome fails for a few seconds after the request
// left. The worker keeps trying (write-retry.ts) instead of leaving the job to a take-over that would record
// `unknown` for a request the endpoint answered 200.
describe('an outcome write that fails for a while', () => {
  const ctx = useRedis('outcome-retry');

  it('is recorded as delivered once Redis takes writes again, and the hook carries on', async () => {
    const receiver = await startReceiver();
    ctx.onCleanup(() => receiver.close());
    const keys = redisKeys(ctx.prefix);
    const store = createStore({
      redis: ctx.redis,
      keys,
      secretBox: SecretBox.fromKey(randomBytes(32)),
      hookQueues: new HookQueues(ctx.redis, keys),
    });
    let refused = 0;
    let writesRefusedUntil = 0;
    const ledger = store.attempts;
    const attempts: AttemptLedger = {
      begin: (...args) => ledger.begin(...args),
      release: (...args) => ledger.release(...args),
      finish: async (...args) => {
        // The first outcome's writes fail for 1.5 s, as while a replica is being promoted.
        writesRefusedUntil ||= Date.now() + 1500;
        if (Date.now() < writesRefusedUntil) {
          refused += 1;
          throw new Error('CLUSTERDOWN The cluster is down');
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
    });
    ctx.onCleanup(() => worker.close());
    const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys }));

    const account = await store.accounts.create({ name: 'Failover' });
    const hook = await store.hooks.create(account.id, { url: receiver.url(), format: 'json' }, 'operator');
    for (const callId of ['first', 'second'])
      await producer.publish(account.id, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: callId },
      });
    await waitUntil(
      async () => (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 2,
      'both events recorded in the history outbox',
      15000,
    );

    expect(refused).toBeGreaterThan(1);
    const callIds = receiver.requests.map(
      (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
    );
    expect(callIds).toEqual(['first', 'second']);
    const recorded = (await ctx.redis.lrange(keys.hookHistoryOutbox(hook.id), 0, -1)).map(
      (entry) => JSON.parse(entry) as { event_fields: Record<string, string>; outcome: string },
    );
    expect(recorded.map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['first', 'delivered'],
      ['second', 'delivered'],
    ]);
  }, 30000);
});
