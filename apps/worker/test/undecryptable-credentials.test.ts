import { randomBytes } from 'node:crypto';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, useRedis, waitUntil } from '@hookline/testing';
import { startWorker } from '../src';

// After HOOKLINE_SECRET_KEY changed, a hook's sealed credentials no longer open. The worker used to fail the
// whole drain with the exception, put the hook back at once and take it again: a warn line every few
// milliseconds, forever. Each such attempt is now an outcome: `failed`, naming the cause, nothing sent, one
// record per event, and the failure goes to the outcome stream where the suspension monitor counts it.
describe('a hook whose credentials this worker cannot decrypt', () => {
  const ctx = useRedis('unreadable-creds');

  it('fails each event once, naming the cause, and sends nothing', async () => {
    const receiver = await startReceiver();
    ctx.onCleanup(() => receiver.close());
    const keys = redisKeys(ctx.prefix);
    const hookQueues = new HookQueues(ctx.redis, keys);
    const sealedWith = createStore({
      redis: ctx.redis,
      keys,
      secretBox: SecretBox.fromKey(randomBytes(32)),
      hookQueues,
    });
    // The worker runs with another key, as after HOOKLINE_SECRET_KEY was changed.
    const workerStore = createStore({
      redis: ctx.redis,
      keys,
      secretBox: SecretBox.fromKey(randomBytes(32)),
      hookQueues,
    });
    const worker = startWorker({
      config: {
        HOOKLINE_DELIVERY_TIMEOUT_MS: 1000,
        HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
        HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
        HOOKLINE_WORKER_MAX_HOOKS: 8,
      },
      redis: ctx.redis,
      keys,
      store: workerStore,
      metrics: createMetrics(),
      logger: createLogger('silent', 'test'),
    });
    ctx.onCleanup(() => worker.close());
    const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys }));

    const account = await sealedWith.accounts.create({ name: 'Rotated' });
    const hook = await sealedWith.hooks.create(
      account.id,
      { url: receiver.url(), format: 'json', auth: { scheme: 'bearer', token: 'tok_secret_123' } },
      'operator',
    );
    for (const callId of ['one', 'two', 'three'])
      await producer.publish(account.id, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: callId },
      });
    await waitUntil(
      async () => (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 3,
      'three records in the history outbox',
      20000,
    );
    const queue = hookQueues.open(hook.id);
    ctx.onCleanup(() => queue.close());
    await waitUntil(
      async () => (await queue.getJobCounts('failed')).failed === 3,
      'three failed jobs',
      10000,
    );

    const recorded = (await ctx.redis.lrange(keys.hookHistoryOutbox(hook.id), 0, -1)).map(
      (entry) =>
        JSON.parse(entry) as { event_fields: Record<string, string>; outcome: string; error?: string },
    );
    expect(recorded.map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['one', 'failed'],
      ['two', 'failed'],
      ['three', 'failed'],
    ]);
    for (const r of recorded)
      expect(r.error).toMatch(/credentials could not be decrypted.*HOOKLINE_SECRET_KEY/);
    expect(receiver.requests).toHaveLength(0);
    // Where the suspension monitor counts failures: one entry per event, not one per spin.
    const stream = await ctx.redis.xrange(keys.outcomes(), '-', '+');
    expect(stream.filter(([, fields]) => fields.includes(hook.id))).toHaveLength(3);
    expect(await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))).toBe(3);
  }, 30000);
});
