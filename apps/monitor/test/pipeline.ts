import { randomBytes } from 'node:crypto';
import type { EventCatalog } from '@hookline/core';
import { DeliveryLog, HistoryReader, openHistory, type HistoryStore } from '@hookline/history';
import { Producer } from '@hookline/queue';
import { HistoryOutbox, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { ReadySet } from '@hookline/scheduler';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { createHoldCap, HookControl, type SuspensionStore } from '@hookline/suspension';
import { createLogger, createMetrics, type Logger } from '@hookline/telemetry';
import type { usePostgres, useRedis } from '@hookline/testing';
import { startWorker } from '@hookline/worker';
import { startMonitor, type MonitorDeps } from '../src';

// The whole delivery path as the end-to-end tests run it: the production store with its delivery log, the
// producer, hook control, a real worker and a real monitor (with its history writer) on the test's Redis
// prefix and PostgreSQL schema. Opened in two steps so a test creates its receiver and hooks in between,
// before the worker and the monitor start.

export interface Pipeline {
  readonly keys: RedisKeys;
  readonly hookQueues: HookQueues;
  readonly history: HistoryStore;
  readonly store: Store & SuspensionStore;
  readonly control: HookControl;
  readonly producer: Producer;
  /** Starts the worker and the monitor (both closed with the test). */
  run(options: RunOptions): void;
}

export interface PipelineOptions {
  /** The operator's event catalogue, for the store and the producer. */
  readonly catalog?: EventCatalog;
  /** Events held for a suspended hook beyond this many are dropped, as HOOKLINE_HOLD_MAX does. */
  readonly holdMax?: number;
}

export interface RunOptions {
  readonly deliveryTimeoutMs: number;
  /** The monitor's logger (silent by default): a test reads the JSON lines it writes. */
  readonly monitorLogger?: Logger;
  readonly monitor: Pick<MonitorDeps, 'config'> & Partial<Pick<MonitorDeps, 'erasures' | 'historyTimings'>>;
}

export async function openPipeline(
  ctx: ReturnType<typeof useRedis>,
  pg: ReturnType<typeof usePostgres>,
  options: PipelineOptions = {},
): Promise<Pipeline> {
  const { catalog, holdMax } = options;
  const keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
  const outbox = new HistoryOutbox(ctx.redis, keys);
  const secretBox = SecretBox.fromKey(randomBytes(32));
  const base = createStore({
    redis: ctx.redis,
    keys,
    secretBox,
    hookQueues,
    ...(catalog ? { catalog } : {}),
  });
  const store = {
    ...base,
    deliveryLog: new DeliveryLog(
      outbox,
      new HistoryReader(history.client, outbox, (id) => base.hooks.listIds(id)),
    ),
    historyOutbox: outbox,
  };
  const ready = new ReadySet(ctx.redis, keys);
  const control = new HookControl({
    redis: ctx.redis,
    keys,
    hookQueues,
    store,
    // HOOKLINE_HOLD_MAX's default when the test sets no cap.
    holdMax: holdMax ?? 10_000,
    signalReady: (id) => ready.signal([id]),
  });
  const holdCap = createHoldCap({ hookQueues, outbox });
  const producer = ctx.closeLater(
    new Producer({
      redis: ctx.redis,
      keys,
      erasureTags: store.erasureTags,
      ...(catalog ? { catalog } : {}),
      ...(holdMax !== undefined
        ? { onHeld: (ids: readonly string[]) => Promise.all(ids.map((id) => holdCap(id, holdMax))) }
        : {}),
    }),
  );
  return {
    keys,
    hookQueues,
    history,
    store,
    control,
    producer,
    run({ deliveryTimeoutMs, monitor, monitorLogger }) {
      // The worker's store, as a worker process wires it: its outcome script applies the monitor's rule.
      const workerStore = {
        ...store,
        ...createStore({
          redis: ctx.redis,
          keys,
          secretBox,
          hookQueues,
          ...(catalog ? { catalog } : {}),
          suspensionRule: {
            threshold: monitor.config.HOOKLINE_SUSPEND_AFTER_FAILURES,
            windowMs: monitor.config.HOOKLINE_SUSPEND_AFTER_MS,
          },
        }),
      };
      const worker = startWorker({
        config: {
          HOOKLINE_DELIVERY_TIMEOUT_MS: deliveryTimeoutMs,
          HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
          HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
          HOOKLINE_WORKER_MAX_HOOKS: 16,
        },
        redis: ctx.redis,
        keys,
        store: workerStore,
        metrics: createMetrics(),
        logger: createLogger('silent', 'test-worker'),
      });
      ctx.onCleanup(() => worker.close());
      const running = startMonitor({
        redis: ctx.redis,
        keys,
        store,
        history,
        logger: monitorLogger ?? createLogger('silent', 'test-monitor'),
        blockMs: 100,
        ...monitor,
      });
      ctx.onCleanup(() => running.close());
    },
  };
}
