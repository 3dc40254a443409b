import type { Redis } from 'ioredis';
import {
  AuditReader,
  AuditTrail,
  DeliveryLog,
  historyAnswers,
  HistoryReader,
  type SqlClient,
} from '@hookline/history';
import { AuditOutbox, HistoryOutbox, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, PortalLinks, SecretBox, type Store, type SuspensionRule } from '@hookline/store';
import { HookControl, type HookControlDeps } from '@hookline/suspension';
import { HookQueues } from '@hookline/redis';
import type { Producer } from '@hookline/queue';
import { wireProducer } from './producer-wiring';
import { type LogSink, type Clock, type EventCatalog, type Tracing } from '@hookline/core';
import { ReadySet } from '@hookline/scheduler';

export interface ServiceSettings {
  readonly HOOKLINE_QUEUE_PREFIX: string;
  readonly HOOKLINE_HOLD_MAX: number;
  /** The event kinds (HOOKLINE_EVENT_CATALOG, loaded with the config); call_created alone when absent. */
  readonly eventCatalog?: EventCatalog;
  /** HOOKLINE_EVENT_TYPE_HEADER: no hook's extra header may name it. The default when absent. */
  readonly HOOKLINE_EVENT_TYPE_HEADER?: string;
  /** A probe's deadline, which a re-enable's lock outlasts (15 s when absent). */
  readonly HOOKLINE_DELIVERY_TIMEOUT_MS?: number;
}

export interface Services {
  readonly keys: RedisKeys;
  readonly hookQueues: HookQueues;
  readonly store: Store;
  /** The delivery history's reads (database and outboxes). */
  readonly history: HistoryReader;
  /** A hook's newest records, and the way dropped events are recorded. */
  readonly deliveryLog: DeliveryLog;
  /** Where records no delivery made (expired, discarded) are appended, and hooks marked for the writer. */
  readonly outbox: HistoryOutbox;
  readonly producer: Producer;
  readonly control: HookControl;
  /** Whether the history database answers within `ms` (readiness). */
  historyAnswers(ms: number): ReturnType<typeof historyAnswers>;
  /** How long the oldest attempt record not yet in the database has waited (ms; 0 when none waits). */
  historyLagMs(): Promise<number>;
  readonly ready: ReadySet;
  /** The audit log: each change someone makes, recorded by the front door that made it (product.md §16). */
  readonly audit: AuditTrail;
  /** Sign-in links into the website. */
  readonly portalLinks: PortalLinks;
  close(): Promise<void>;
}

/**
 * The domain services every front door shares (API, website, Bull Board), wired once: the store, the
 * producer with the hold cap for suspended hooks, and hook control with its wake-up signal to the workers.
 */
export function createServices(deps: {
  redis: Redis;
  settings: ServiceSettings;
  secretKey: Buffer;
  /** The history database, opened (and migrated) by the caller, who also closes it. */
  historyDb: SqlClient;
  /** One HTTP attempt and the event-type header, for the probe a re-enable may ask for. */
  probe?: HookControlDeps['probe'];
  log?: LogSink;
  clock?: Clock;
  /** Spans of publishes, fan-outs and send-agains, when the process has an exporter (startTracing). */
  tracing?: Tracing;
  /** For services a worker records outcomes with: the failure that suspends a hook pauses it in its script. */
  suspensionRule?: SuspensionRule;
}): Services {
  const { redis, settings } = deps;
  const catalog = settings.eventCatalog;
  const keys = redisKeys(settings.HOOKLINE_QUEUE_PREFIX);
  const hookQueues = new HookQueues(redis, keys);
  const store = createStore({
    redis,
    keys,
    secretBox: SecretBox.fromKey(deps.secretKey),
    hookQueues,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(catalog ? { catalog } : {}),
    ...(settings.HOOKLINE_EVENT_TYPE_HEADER ? { eventTypeHeader: settings.HOOKLINE_EVENT_TYPE_HEADER } : {}),
    ...(deps.suspensionRule ? { suspensionRule: deps.suspensionRule } : {}),
  });
  const outbox = new HistoryOutbox(redis, keys);
  const history = new HistoryReader(deps.historyDb, outbox, (accountId) => store.hooks.listIds(accountId));
  const deliveryLog = new DeliveryLog(outbox, history);
  const producer = wireProducer({
    redis,
    keys,
    store,
    hookQueues,
    outbox,
    holdMax: settings.HOOKLINE_HOLD_MAX,
    ...(catalog ? { catalog } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.tracing ? { tracing: deps.tracing } : {}),
  });
  const ready = new ReadySet(redis, keys);
  const auditOutbox = new AuditOutbox(redis, keys);
  // One JSON line per entry, for log pipelines that watch changes as they happen.
  const audit = new AuditTrail(
    auditOutbox,
    new AuditReader(deps.historyDb, auditOutbox),
    (entry) => deps.log?.info({ audit: true, ...entry }, 'audit'),
    deps.clock,
  );
  const control = new HookControl({
    redis,
    keys,
    hookQueues,
    store: { ...store, deliveryLog, historyOutbox: outbox },
    holdMax: settings.HOOKLINE_HOLD_MAX,
    signalReady: (hookId) => ready.signal([hookId]),
    ...(settings.HOOKLINE_DELIVERY_TIMEOUT_MS ? { deadlineMs: settings.HOOKLINE_DELIVERY_TIMEOUT_MS } : {}),
    // A probe is an attempt: it gets its own `hookline.delivery` span when the process traces.
    ...(deps.probe ? { probe: { ...deps.probe, ...(deps.tracing ? { tracing: deps.tracing } : {}) } } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return {
    keys,
    hookQueues,
    store,
    history,
    deliveryLog,
    outbox,
    producer,
    control,
    ready,
    audit,
    portalLinks: new PortalLinks(redis, keys, deps.clock),
    historyAnswers: (ms) => historyAnswers(deps.historyDb, ms),
    historyLagMs: async () => {
      const now = Date.now();
      const oldest = await outbox.oldestMark(now);
      return oldest === undefined ? 0 : Math.max(0, now - oldest);
    },
    close: () => producer.close(),
  };
}
