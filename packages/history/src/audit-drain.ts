import type { AuditEntry, Clock } from '@hookline/core';
import type { AuditOutbox } from '@hookline/redis';
import { parseAuditEntry, type AuditWriter } from './audit-log';
import { DrainLoop, writable } from './drain-loop';

export interface AuditDrainOptions {
  readonly outbox: AuditOutbox;
  readonly writer: AuditWriter;
  readonly retentionDays: number;
  readonly clock: Clock;
  /** How often an idle drain looks again: bounds how late an entry reaches the database. */
  readonly idleMs?: number;
  readonly maintainEveryMs?: number;
  readonly onWritten?: (count: number) => void;
  readonly onDropped?: (why: string, count: number) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * Moves audit entries from the Redis outbox to PostgreSQL, oldest first: read a slice, insert it, then trim
 * exactly that slice. Killed at any point it loses nothing (entries leave Redis only once written) and
 * duplicates nothing (an entry written twice is a conflict the insert ignores); several monitors may run one,
 * and the trim script keeps them from trimming what they did not write. Also drops partitions past retention.
 */
export class AuditDrain {
  private readonly loop: DrainLoop;

  constructor(private readonly o: AuditDrainOptions) {
    this.loop = new DrainLoop({
      round: async () => (await this.round()) > 0,
      maintain: () => o.writer.partitions.maintain(o.clock().getTime(), o.retentionDays),
      ...(o.maintainEveryMs !== undefined ? { maintainEveryMs: o.maintainEveryMs } : {}),
      ...(o.idleMs !== undefined ? { idleMs: o.idleMs } : {}),
      onError: o.onError,
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One slice: how many entries were taken off the outbox (0 when it was empty). */
  async round(): Promise<number> {
    const texts = await this.o.outbox.read();
    if (texts.length === 0) return 0;
    const entries = writable(
      texts,
      parseAuditEntry,
      (entry: AuditEntry) => entry.at,
      this.o.clock().getTime(),
      this.o.retentionDays,
      this.o.onDropped,
    );
    await this.o.writer.write(entries);
    await this.o.outbox.ack(texts.length, texts.at(-1)!);
    if (entries.length > 0) this.o.onWritten?.(entries.length);
    return texts.length;
  }
}
