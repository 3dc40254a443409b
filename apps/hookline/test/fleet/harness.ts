import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HistoryOutbox, redisKeys, type RedisKeys } from '@hookline/redis';
import {
  DeliveryLog,
  HistoryReader,
  openHistory,
  type HistoryStore,
  type SqlClient,
} from '@hookline/history';
import type { SuspensionStore } from '@hookline/suspension';
import { SAMPLE_CALL_DATA, type CreateHookInput } from '@hookline/core';
import { HookQueues } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import {
  spawnEntry,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  usePostgres,
  useRedis,
  type SpawnedProcess,
} from '@hookline/testing';
import { startWorker, type RunningWorker, type WorkerDeps } from '@hookline/worker';
import { startMonitor, type RunningMonitor } from '@hookline/monitor';

export const SAMPLE = SAMPLE_CALL_DATA;

export const WORKER_CONFIG: WorkerDeps['config'] = {
  HOOKLINE_DELIVERY_TIMEOUT_MS: 15000,
  HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
  HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
  HOOKLINE_WORKER_MAX_HOOKS: 64,
};

/**
 * hookline's store (with the delivery history on `historyDb`), hook queues and producer on `redis` under
 * `prefix`; the caller closes the producer.
 */
export function hooklineParts(redis: Redis, prefix: string, secretKey: Buffer, historyDb: SqlClient) {
  const keys = redisKeys(prefix);
  const hookQueues = new HookQueues(redis, keys);
  const outbox = new HistoryOutbox(redis, keys);
  const reader = new HistoryReader(historyDb, outbox, (id) => store.hooks.listIds(id));
  const store: Store & SuspensionStore = {
    ...createStore({ redis, keys, secretBox: SecretBox.fromKey(secretKey), hookQueues }),
    deliveryLog: new DeliveryLog(outbox, reader),
    historyOutbox: outbox,
  };
  return {
    keys,
    hookQueues,
    store,
    reader,
    producer: new Producer({ redis, keys, erasureTags: store.erasureTags }),
  };
}

/** A real worker process with the tests' settings (loopback allowed, short idle), killed after the test. */
export function spawnTestWorker(
  env: Record<string, string>,
  onCleanup: (close: () => Promise<unknown>) => void,
  entry = 'apps/hookline/src/worker-main.ts',
): SpawnedProcess {
  const worker = spawnEntry(entry, {
    HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
    HOOKLINE_METRICS_PORT: '0',
    ...env,
  });
  onCleanup(async () => {
    worker.kill('SIGKILL');
    await worker.exited;
  });
  return worker;
}

/**
 * hookline's real parts (store, producer, worker) on a real Redis under a test-only prefix, and the delivery
 * history in the test's own PostgreSQL schema (records stay in the hooks' outboxes unless a monitor runs).
 */
export function useHookline() {
  const ctx = useRedis('hl');
  const pg = usePostgres('hl');
  const secretKey = randomBytes(32);
  const h = {
    ctx,
    pg,
    history: undefined as unknown as HistoryStore,
    reader: undefined as unknown as HistoryReader,
    secretKeyHex: secretKey.toString('hex'),
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store & SuspensionStore,
    producer: undefined as unknown as Producer,
    hookQueues: undefined as unknown as HookQueues,
    startWorker(config: Partial<WorkerDeps['config']> = {}, extra: Partial<WorkerDeps> = {}): RunningWorker {
      const worker = startWorker({
        config: { ...WORKER_CONFIG, ...config },
        redis: ctx.redis,
        keys: h.keys,
        store: h.store,
        metrics: createMetrics(),
        logger: createLogger('silent', 'test-worker'),
        ...extra,
      });
      ctx.onCleanup(() => worker.close());
      return worker;
    },
    /** The monitor in this process: with it, the history writer moves records to PostgreSQL. */
    startMonitor(suspendAfter: { failures?: number; ms?: number } = {}): RunningMonitor {
      const monitor = startMonitor({
        redis: ctx.redis,
        keys: h.keys,
        store: h.store,
        history: h.history,
        logger: createLogger('silent', 'test-monitor'),
        config: {
          HOOKLINE_SUSPEND_AFTER_FAILURES: suspendAfter.failures ?? 10,
          HOOKLINE_SUSPEND_AFTER_MS: suspendAfter.ms ?? 600_000,
        },
        blockMs: 100,
      });
      ctx.onCleanup(() => monitor.close());
      return monitor;
    },
    /** A real worker process (the production entry point by default), killed after the test. */
    spawnWorker(
      entry = 'apps/hookline/src/worker-main.ts',
      env: Record<string, string> = {},
    ): SpawnedProcess {
      return spawnTestWorker(
        {
          REDIS_URL: TEST_REDIS_URL,
          HOOKLINE_QUEUE_PREFIX: ctx.prefix,
          HOOKLINE_SECRET_KEY: h.secretKeyHex,
          DATABASE_URL: TEST_DATABASE_URL,
          HOOKLINE_DATABASE_SCHEMA: pg.schema,
          ...env,
        },
        ctx.onCleanup,
        entry,
      );
    },
    async account(name = 'Acme Telecom') {
      return h.store.accounts.create({ name });
    },
    async hook(accountId: string, input: Partial<CreateHookInput> & { url: string }) {
      return h.store.hooks.create(
        accountId,
        { format: 'json', auth: { scheme: 'none' }, ...input },
        'operator',
      );
    },
    async publish(accountId: string, data: Partial<Record<keyof typeof SAMPLE, string>> = {}, id?: string) {
      return h.producer.publish(accountId, {
        type: 'call_created',
        ...(id ? { id } : {}),
        data: { ...SAMPLE, ...data },
      });
    },
    /** The hook's records, newest first, as the history API reads them (database and outbox). */
    async deliveries(hookId: string) {
      return (await h.reader.listForHook(hookId, {}, { limit: 1000 })).data;
    },
  };
  beforeEach(async () => {
    h.history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => h.history.close());
    ({
      keys: h.keys,
      hookQueues: h.hookQueues,
      store: h.store,
      reader: h.reader,
      producer: h.producer,
    } = hooklineParts(ctx.redis, ctx.prefix, secretKey, h.history.client));
    ctx.closeLater(h.producer);
  });
  return h;
}
