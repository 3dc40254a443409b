import type { Clock } from '@hookline/core';
import { historyAnswers, HistoryDrain, type HistoryStore } from '@hookline/history';
import { HookSweep } from '@hookline/scheduler';
import { HistoryOutbox, type RedisKeys } from '@hookline/redis';
import { fleetMetrics, type Logger, type Metrics } from '@hookline/telemetry';
import type { Redis } from 'ioredis';

/** Hooks looked at per second for outboxes whose marker a crash lost: 100,000 hooks in under 4 minutes. */
const SWEEP_PER_TICK = 500;
const LAG_EVERY_MS = 1000;

export interface HistoryWriterDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly history: Pick<HistoryStore, 'writer' | 'partitions' | 'client'>;
  readonly retentionDays: number;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly registry?: Metrics['registry'];
  /** Tests shorten these. */
  readonly sweepEveryMs?: number;
  readonly idleMs?: number;
  readonly holdMs?: number;
}

/**
 * The history writer of a monitor process: drains the hooks' outboxes into the database, puts back markers
 * lost in a crash, keeps the partitions, and exports its lag. Every monitor runs one; they share the work.
 */
export function startHistoryWriter(deps: HistoryWriterDeps): { close(): Promise<void> } {
  const { logger, clock } = deps;
  const log = logger.child({ component: 'history-writer' });
  const metrics = deps.registry ? fleetMetrics(deps.registry) : undefined;
  const outbox = new HistoryOutbox(deps.redis, deps.keys);
  const sweep = new HookSweep(deps.redis, deps.keys);
  const drain = new HistoryDrain({
    outbox,
    writer: deps.history.writer,
    partitions: deps.history.partitions,
    retentionDays: deps.retentionDays,
    clock,
    sweep: async () => (await sweep.next(SWEEP_PER_TICK)).ids,
    ...(deps.sweepEveryMs !== undefined ? { sweepEveryMs: deps.sweepEveryMs } : {}),
    ...(deps.idleMs !== undefined ? { idleMs: deps.idleMs } : {}),
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
  const lagTimer = setInterval(() => {
    void (async () => {
      const now = clock().getTime();
      const oldest = await outbox.oldestMark(now);
      metrics?.historyLag.set(oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000);
      metrics?.historyUp.set((await historyAnswers(deps.history.client, LAG_EVERY_MS)).ok ? 1 : 0);
    })().catch((error: unknown) => log.warn({ err: error }, 'history lag: not measured'));
  }, LAG_EVERY_MS);
  lagTimer.unref();
  return {
    async close() {
      clearInterval(lagTimer);
      await drain.stop();
    },
  };
}
