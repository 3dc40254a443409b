import { randomBytes } from 'node:crypto';
import { ErasureTags, SAMPLE_CALL_DATA } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type AttemptLedger, type Store } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import { startWorker, type WorkerDeps } from '../../src';

/**
 * One worker in the test's process on the test's Redis prefix, a receiver, a store and a producer: the
 * worker tests differ only in the attempt ledger they give it (a write that fails, another secret key).
 */
export function useWorkerRig(label: string) {
  const ctx = useRedis(label);
  const rig = {
    ctx,
    keys: undefined as unknown as RedisKeys,
    hookQueues: undefined as unknown as HookQueues,
    receiver: undefined as unknown as Receiver,
    producer: undefined as unknown as Producer,
    /** The erasure tags of the rig's producer and workers (no test here runs an erasure: any key will do). */
    erasureTags: ErasureTags.fromSecretKey(randomBytes(32)),
    /** A store sealing credentials with a key of its own (each call: another key). */
    store(): Store {
      return createStore({
        redis: ctx.redis,
        keys: rig.keys,
        secretBox: SecretBox.fromKey(randomBytes(32)),
        hookQueues: rig.hookQueues,
      });
    },
    /** An account named `name` with one JSON hook pointed at the rig's receiver (as it is when called). */
    async hookOnReceiver(store: Store, name: string) {
      const account = await store.accounts.create({ name });
      const hook = await store.hooks.create(
        account.id,
        { url: rig.receiver.url(), format: 'json' },
        'operator',
      );
      return { account, hook };
    },
    startWorker(attempts: AttemptLedger, timings?: WorkerDeps['timings']) {
      const worker = startWorker({
        config: {
          HOOKLINE_DELIVERY_TIMEOUT_MS: 1000,
          HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
          HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
          HOOKLINE_WORKER_MAX_HOOKS: 8,
        },
        redis: ctx.redis,
        keys: rig.keys,
        store: { attempts, erasureTags: rig.erasureTags },
        metrics: createMetrics(),
        logger: createLogger('silent', 'test'),
        ...(timings ? { timings } : {}),
      });
      ctx.onCleanup(() => worker.close());
      return worker;
    },
    publish(accountId: string, callId: string) {
      return rig.producer.publish(accountId, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: callId },
      });
    },
    /** The hook's records waiting in its history outbox: call id and outcome (and error) of each. */
    async recorded(hookId: string) {
      return (await ctx.redis.lrange(rig.keys.hookHistoryOutbox(hookId), 0, -1)).map(
        (entry) =>
          JSON.parse(entry) as { event_fields: Record<string, string>; outcome: string; error?: string },
      );
    },
    /**
     * Waits until the hook has one record per call id, then expects each call id received once, in order,
     * and recorded `delivered`.
     */
    async expectDeliveredOnce(hookId: string, callIds: readonly string[], timeoutMs = 15_000) {
      await waitUntil(
        async () => (await rig.recorded(hookId)).length === callIds.length,
        `${callIds.length} events recorded in the history outbox`,
        timeoutMs,
      );
      expect(rig.callIdsReceived()).toEqual(callIds);
      expect((await rig.recorded(hookId)).map((r) => [r.event_fields.call_id, r.outcome])).toEqual(
        callIds.map((id) => [id, 'delivered']),
      );
    },
    callIdsReceived(): string[] {
      return rig.receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id);
    },
  };
  beforeEach(async () => {
    rig.keys = redisKeys(ctx.prefix);
    rig.hookQueues = new HookQueues(ctx.redis, rig.keys);
    rig.receiver = await startReceiver();
    ctx.onCleanup(() => rig.receiver.close());
    rig.producer = ctx.closeLater(
      new Producer({ redis: ctx.redis, keys: rig.keys, erasureTags: rig.erasureTags }),
    );
  });
  return rig;
}

/**
 * The store's attempt ledger with some of its calls replaced: every other call goes to `ledger` itself (a
 * spread would lose the methods, which live on its class).
 */
export function ledgerWith(ledger: AttemptLedger, replaced: Partial<AttemptLedger>): AttemptLedger {
  const all = ledger as Required<AttemptLedger>;
  return {
    begin: (...args) => all.begin(...args),
    withdraw: (...args) => all.withdraw(...args),
    release: (...args) => all.release(...args),
    finish: (...args) => all.finish(...args),
    finishAndComplete: (...args) => all.finishAndComplete(...args),
    takeAndBegin: (...args) => all.takeAndBegin(...args),
    ...replaced,
  };
}

/**
 * The store's attempt ledger, with every outcome write going through `gate` first: a gate that throws
 * refuses that write, as Redis does during a failover.
 */
export function withOutcomeGate(ledger: AttemptLedger, gate: () => void): AttemptLedger {
  return ledgerWith(ledger, {
    finishAndComplete: async (...args) => {
      gate();
      return ledger.finishAndComplete(...args);
    },
  });
}
