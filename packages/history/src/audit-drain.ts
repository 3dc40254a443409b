import type { Clock } from '@hookline/core';
import type { AuditOutbox } from '@hookline/redis';
import { parseAuditEntry, type AuditWriter } from './audit-log';
import { DrainLoop, writableEntries } from './drain-loop';
import { Partitions } from './partitions';

export interface AuditDrainOptions {
  readonly outbox: AuditOutbox;
  readonly writer: AuditWriter;
  readonly retentionDays: number;
  readonly clock: Clock;
  /**
   * How soon a drain that found nothing looks again, doubling up to `idleMaxMs` (DrainLoop): bounds how late
   * an entry reaches the database. Readers see entries not written yet from the outbox meanwhile.
   */
  readonly idleMs?: number;
  readonly idleMaxMs?: number;
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
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: AuditDrainOptions) {
    this.loop = new DrainLoop({
      round: () => this.round(),
      ...(o.idleMs !== undefined ? { idleMs: o.idleMs } : {}),
      ...(o.idleMaxMs !== undefined ? { idleMaxMs: o.idleMaxMs } : {}),
      onError: o.onError,
    });
  }

  start(): void {
    if (this.timer) return;
    this.loop.start();
    this.timer = setInterval(() => void this.maintain(), this.o.maintainEveryMs ?? 3600_000);
    void this.maintain();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.loop.stop();
  }

  /** One slice: how many entries were taken off the outbox (0 when it was empty). */
  async round(): Promise<number> {
    const texts = await this.o.outbox.read();
    if (texts.length === 0) return 0;
    const horizon = Partitions.horizon(this.o.clock().getTime(), this.o.retentionDays);
    const entries = writableEntries(texts, parseAuditEntry, (e) => e.at, horizon, this.o.onDropped);
    await this.o.writer.write(entries);
    await this.o.outbox.ack(texts.length, texts.at(-1)!);
    if (entries.length > 0) this.o.onWritten?.(entries.length);
    return texts.length;
  }

  private async maintain(): Promise<void> {
    try {
      await this.o.writer.partitions.maintain(this.o.clock().getTime(), this.o.retentionDays);
    } catch (error) {
      this.o.onError(error);
    }
  }
}
