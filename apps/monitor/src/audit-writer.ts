import type { Clock } from '@hookline/core';
import { AuditDrain, AuditWriter, type HistoryStore } from '@hookline/history';
import { AuditOutbox, type RedisKeys } from '@hookline/redis';
import type { Logger } from '@hookline/telemetry';
import type { Redis } from 'ioredis';

export interface AuditWriterDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly history: Pick<HistoryStore, 'client'>;
  /** The history's retention: the audit log is kept exactly as long. */
  readonly retentionDays: number;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly idleMs?: number;
}

/**
 * The audit writer of a monitor process: moves audit entries from the Redis outbox into the database and
 * keeps the audit table's partitions. Every monitor runs one; the trim script keeps them from stepping on
 * one another.
 */
export function startAuditWriter(deps: AuditWriterDeps): { close(): Promise<void> } {
  const log = deps.logger.child({ component: 'audit-writer' });
  const drain = new AuditDrain({
    outbox: new AuditOutbox(deps.redis, deps.keys),
    writer: new AuditWriter(deps.history.client),
    retentionDays: deps.retentionDays,
    clock: deps.clock,
    ...(deps.idleMs !== undefined ? { idleMs: deps.idleMs } : {}),
    onDropped: (reason, count) => log.warn({ reason, count }, 'audit entries dropped'),
    onError: (error) => log.error({ err: error }, 'audit writer: retrying'),
  });
  drain.start();
  return { close: () => drain.stop() };
}
