import { type Clock, runOnBeat, systemClock, type Tracing } from '@hookline/core';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import { createHoldCap, Streaks, type SuspensionStore } from '@hookline/suspension';
import { AuditOutbox, HookQueues } from '@hookline/redis';
import { INBOX_GRACE_MS, InboxRecovery, MONITOR_GROUP } from '@hookline/queue';
import { watchedDuplicate, refreshedOnScrape, type Logger, type Metrics } from '@hookline/telemetry';
import { StreamGroupReader } from '@hookline/queue';
import { Suspender } from '@hookline/suspension';
import { SuspendedIndex } from '@hookline/suspension';
import { AuditReader, AuditTrail, type HistoryStore } from '@hookline/history';
import { startErasureRunner, type ErasureRunnerDeps } from './erasures/erasure-runner';
import { startAuditWriter } from './audit-writer';
import { startHistoryWriter, type HistoryWriterDeps } from './history-writer';
import { startNotices, type NoticesConfig } from './notices/start-notices';
import { startOperations } from './operations';

export interface MonitorDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: SuspensionStore;
  /** The history database: this monitor's history writer moves the hooks' outboxes into it. */
  readonly history: Pick<HistoryStore, 'writer' | 'partitions' | 'client'>;
  readonly logger: Logger;
  readonly metrics?: Pick<Metrics, 'suspendedHooks' | 'registry'>;
  readonly config: {
    readonly HOOKLINE_SUSPEND_AFTER_FAILURES: number;
    readonly HOOKLINE_SUSPEND_AFTER_MS: number;
    /** Replicas each primary's writes wait for: the monitor reports when fewer are online (default 0). */
    readonly HOOKLINE_REDIS_REPLICA_ACKS?: number;
    /** Held events of the hooks it suspends and of those a recovered fan-out adds to (default 10000). */
    readonly HOOKLINE_HOLD_MAX?: number;
    /** The watchdog wakes a hook with work and no worker after this long (default 60000). */
    readonly HOOKLINE_STUCK_AFTER_MS?: number;
    readonly HOOKLINE_HISTORY_RETENTION_DAYS?: number;
  };
  readonly clock?: Clock;
  /** Spans for the interrupted fan-outs it completes (the all-in-one and monitor processes pass theirs). */
  readonly tracing?: Tracing;
  /** Unique per process by default; a consumer's pending entries are claimed by others when it dies. */
  readonly consumerName?: string;
  /** How long an outcome may stay pending with a silent monitor before another takes it (default 30 s). */
  readonly claimIdleMs?: number;
  readonly batchSize?: number;
  readonly blockMs?: number;
  /** How often due streaks are re-checked and the gauge refreshed. */
  readonly tickMs?: number;
  /** How old an unfinished fan-out must be before the monitor completes it (default 10 s). */
  readonly inboxGraceMs?: number;
  /** How often the watchdog looks at its next batch and the fleet gauges are refreshed (default 1 s). */
  readonly operationsTickMs?: number;
  /** E-mail notices to customers (HOOKLINE_SMTP_URL): without them, notices are only in the activity feed. */
  readonly notices?: NoticesConfig;
  /**
   * Erasures of personal data, run by this monitor (the store needs the secret key the API sealed them with);
   * `settleMs`: how long after the first pass deliveries already on the wire may still record.
   */
  readonly erasures?: Pick<ErasureRunnerDeps, 'erasures' | 'settleMs' | 'leaseMs' | 'pollMs'>;
  /** Tests shorten the history writer's idle looks and hold. */
  readonly historyTimings?: Pick<HistoryWriterDeps, 'idleMs' | 'idleMaxMs' | 'holdMs'>;
}

export interface RunningMonitor {
  readonly consumerName: string;
  close(): Promise<void>;
}

const INDEX_RECONCILE_MS = 30_000;
const DEFAULT_HOLD_MAX = 10_000;
const DEFAULT_STUCK_AFTER_MS = 60_000;
const DEFAULT_RETENTION_DAYS = 30;

/**
 * The suspension monitor: consumes every delivery outcome once across all monitor processes, keeps each
 * hook's failure streak and suspends the hook (pauses its queue) when the streak is long and old enough.
 * It also completes fan-outs that a crashed publisher left half-done, runs the watchdog (hooks with work
 * and no worker) and exports the fleet-wide metrics. Run one or several; a restart loses nothing.
 */
export function startMonitor(deps: MonitorDeps): RunningMonitor {
  const { redis, keys, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const claimIdleMs = deps.claimIdleMs ?? 30_000;
  const windowMs = deps.config.HOOKLINE_SUSPEND_AFTER_MS;
  const consumerName = deps.consumerName ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = logger.child({ component: 'monitor', consumer: consumerName });
  const streaks = new Streaks(redis, keys, {
    threshold: deps.config.HOOKLINE_SUSPEND_AFTER_FAILURES,
    windowMs,
    // No longer than the claim delay: a claimed entry of a dead monitor can then record at once.
    leaseMs: claimIdleMs,
  });
  const hookQueues = new HookQueues(redis, keys);
  const index = new SuspendedIndex(redis, keys, hookQueues);
  const holdMax = deps.config.HOOKLINE_HOLD_MAX ?? DEFAULT_HOLD_MAX;
  // Read when scraped: nothing between scrapes.
  if (deps.metrics) {
    const gauge = deps.metrics.suspendedHooks;
    refreshedOnScrape(
      [gauge],
      async () => gauge.set(await index.size()),
      (error) => log.warn({ err: error }, 'hookline_hooks_suspended: not read'),
    );
  }
  const suspender = new Suspender({
    redis,
    keys,
    store: deps.store,
    streaks,
    log,
    clock,
    leaseMs: claimIdleMs,
    hookQueues,
    holdMax,
  });
  const consumer = new StreamGroupReader({
    redis,
    // Its errors logged once per change, as the process's own connection's are (no unhandled error events).
    blocking: watchedDuplicate(redis, log),
    stream: keys.outcomes(),
    group: MONITOR_GROUP,
    consumer: consumerName,
    batchSize: deps.batchSize ?? 200,
    // New outcomes end the wait at once; at rest it is a look for a dead monitor's pending entries (taken over
    // after claimIdleMs), which a few seconds more do not change, every 5 s instead of every second.
    blockMs: deps.blockMs ?? 5000,
    claimIdleMs,
    handle: (entries) => suspender.handle(entries),
    onError: (error) => log.error({ err: error }, 'outcome stream: retrying'),
  });
  consumer.start();
  const holdCap = createHoldCap({ hookQueues, outbox: deps.store.historyOutbox });
  // Fan-outs interrupted by a crash of the publishing process are completed here.
  const recovery = new InboxRecovery({
    redis,
    keys,
    graceMs: deps.inboxGraceMs ?? INBOX_GRACE_MS,
    onHeld: (hookIds) => Promise.all(hookIds.map((id) => holdCap(id, holdMax))),
    log,
    ...(deps.tracing ? { tracing: deps.tracing } : {}),
  });

  // Often enough that a due streak is acted on within a small part of the window.
  const tickMs = deps.tickMs ?? Math.min(1000, Math.max(50, Math.floor(windowMs / 4)));
  let lastReconcile = 0;
  const tick = async () => {
    await recovery.run();
    await suspender.checkDue();
    if (Date.now() - lastReconcile >= INDEX_RECONCILE_MS) {
      lastReconcile = Date.now();
      await index.reconcile();
    }
  };
  // On the process's beat, with the monitor's other once-a-second loops (core/beat.ts).
  const ticks = runOnBeat(tickMs, tick, (error) => log.error({ err: error }, 'monitor tick failed'));
  const stuckAfterMs = deps.config.HOOKLINE_STUCK_AFTER_MS ?? DEFAULT_STUCK_AFTER_MS;
  const operations = startOperations({
    redis,
    keys,
    hookQueues,
    store: deps.store,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    log,
    clock,
    holder: consumerName,
    stuckAfterMs,
    tickMs: deps.operationsTickMs ?? 1000,
    replicaAcks: deps.config.HOOKLINE_REDIS_REPLICA_ACKS ?? 0,
  });
  const historyWriter = startHistoryWriter({
    redis,
    keys,
    history: deps.history,
    retentionDays: deps.config.HOOKLINE_HISTORY_RETENTION_DAYS ?? DEFAULT_RETENTION_DAYS,
    logger,
    clock,
    ...(deps.metrics ? { registry: deps.metrics.registry } : {}),
    ...deps.historyTimings,
  });
  // The erasures' `erasure.done` entries: to the audit outbox, with one JSON log line each, as the front
  // doors write theirs.
  const auditOutbox = new AuditOutbox(redis, keys);
  const audit = new AuditTrail(auditOutbox, new AuditReader(deps.history.client, auditOutbox), (entry) =>
    logger.info({ audit: true, ...entry }, 'audit'),
  );
  const erasures =
    deps.erasures &&
    startErasureRunner({
      ...deps.erasures,
      audit: (entry) => audit.append(entry),
      redis,
      keys,
      outbox: deps.store.historyOutbox,
      hookQueues,
      sql: deps.history.client,
      clock,
      holder: consumerName,
      log,
    });
  const auditWriter = startAuditWriter({
    redis,
    keys,
    history: deps.history,
    retentionDays: deps.config.HOOKLINE_HISTORY_RETENTION_DAYS ?? DEFAULT_RETENTION_DAYS,
    logger,
    clock,
    ...(deps.historyTimings?.idleMs !== undefined ? { idleMs: deps.historyTimings.idleMs } : {}),
  });
  let closed = false;
  const notifier =
    deps.notices &&
    startNotices(deps, deps.notices, { consumerName, claimIdleMs, log, closed: () => closed });
  log.info(
    {
      threshold: deps.config.HOOKLINE_SUSPEND_AFTER_FAILURES,
      windowMs,
      claimIdleMs,
      stuckAfterMs,
      emailNotices: deps.notices?.mailer !== undefined,
      operatorNotices: deps.notices?.operator !== undefined,
    },
    'monitor started',
  );

  return {
    consumerName,
    async close() {
      ticks.leave();
      await erasures?.close();
      await operations.close();
      await historyWriter.close();
      await auditWriter.close();
      closed = true;
      await (await notifier)?.close();
      await consumer.stop();
      await ticks.inFlight();
      await recovery.close();
    },
  };
}
