import type { Clock } from '@hookline/core';
import { historyAnswers, HistoryDrain, type HistoryStore } from '@hookline/history';
import { HistoryOutbox, type RedisKeys } from '@hookline/redis';
import { fleetMetrics, refreshedOnScrape, type Logger, type Metrics } from '@hookline/telemetry';
import type { Redis } from 'ioredis';

/** How long the database may take to answer before it counts as down (hookline_history_database_up 0). */
const ANSWER_WITHIN_MS = 1000;

export interface HistoryWriterDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly history: Pick<HistoryStore, 'writer' | 'partitions' | 'client'>;
  readonly retentionDays: number;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly registry?: Metrics['registry'];
  /** Tests shorten these. */
  readonly idleMs?: number;
  readonly idleMaxMs?: number;
  readonly holdMs?: number;
}

/**
 * The history writer of a monitor process: drains the hooks' outboxes into the database, keeps the
 * partitions, and exports its lag (markers lost in a crash are put back by the watchdog). Every monitor runs one; they share the work.
 */
export function startHistoryWriter(deps: HistoryWriterDeps): { close(): Promise<void> } {
  const { logger, clock } = deps;
  const log = logger.child({ component: 'history-writer' });
  const metrics = deps.registry ? fleetMetrics(deps.registry) : undefined;
  const outbox = new HistoryOutbox(deps.redis, deps.keys);
  const drain = new HistoryDrain({
    outbox,
    writer: deps.history.writer,
    partitions: deps.history.partitions,
    retentionDays: deps.retentionDays,
    clock,
    ...(deps.idleMs !== undefined ? { idleMs: deps.idleMs } : {}),
    ...(deps.idleMaxMs !== undefined ? { idleMaxMs: deps.idleMaxMs } : {}),
    ...(deps.holdMs !== undefined ? { holdMs: deps.holdMs } : {}),
    onWritten: (count) => metrics?.historyWritten.inc(count),
    onDropped: (reason, count) => {
      metrics?.historyDropped.inc({ reason }, count);
      log.warn({ reason, count }, 'history records dropped');
    },
    onError: (error) => {
      metrics?.historyWriteErrors.inc();
      log.error({ err: error }, 'history writer: retrying');
    },
  });
  drain.start();
  // The lag and the database's health are read when scraped: nothing between scrapes.
  if (metrics)
    refreshedOnScrape(
      [metrics.historyLag, metrics.historyUp],
      async () => {
        const now = clock().getTime();
        const [oldest, answered] = await Promise.all([
          outbox.oldestMark(now),
          historyAnswers(deps.history.client, ANSWER_WITHIN_MS),
        ]);
        metrics.historyLag.set(oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000);
        metrics.historyUp.set(answered.ok ? 1 : 0);
      },
      (error) => log.warn({ err: error }, 'history lag: not measured'),
    );
  return {
    async close() {
      await drain.stop();
    },
  };
}
