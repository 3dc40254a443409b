import type { AuditEntry, Clock } from '@hookline/core';
import type { AuditOutbox } from '@hookline/redis';
import { parseAuditEntry, type AuditWriter } from './audit-log';
import { Partitions } from './partitions';

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

const RETRY_MS = 1000;

/**
 * Moves audit entries from the Redis outbox to PostgreSQL, oldest first: read a slice, insert it, then trim
 * exactly that slice. Killed at any point it loses nothing (entries leave Redis only once written) and
 * duplicates nothing (an entry written twice is a conflict the insert ignores); several monitors may run one,
 * and the trim script keeps them from trimming what they did not write. Also drops partitions past retention.
 */
export class AuditDrain {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: AuditDrainOptions) {}

  start(): void {
    if (this.running) return;
    this.running = this.loop();
    this.timer = setInterval(() => void this.maintain(), this.o.maintainEveryMs ?? 3600_000);
    void this.maintain();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.wake?.();
    await this.running;
  }

  /** One slice: how many entries were taken off the outbox (0 when it was empty). */
  async round(): Promise<number> {
    const texts = await this.o.outbox.read();
    if (texts.length === 0) return 0;
    const horizon = Partitions.horizon(this.o.clock().getTime(), this.o.retentionDays);
    const entries: AuditEntry[] = [];
    let unparsable = 0;
    let expired = 0;
    for (const text of texts) {
      const entry = parseAuditEntry(text);
      if (!entry) unparsable++;
      else if (Date.parse(entry.at) < horizon) expired++;
      else entries.push(entry);
    }
    if (unparsable > 0) this.o.onDropped?.('unparsable', unparsable);
    if (expired > 0) this.o.onDropped?.('older than retention', expired);
    await this.o.writer.write(entries);
    await this.o.outbox.ack(texts.length, texts.at(-1)!);
    if (entries.length > 0) this.o.onWritten?.(entries.length);
    return texts.length;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let took = 0;
      try {
        took = await this.round();
      } catch (error) {
        this.o.onError(error);
        await this.sleep(RETRY_MS);
        continue;
      }
      if (took === 0) await this.sleep(this.o.idleMs ?? 100);
    }
  }

  private async maintain(): Promise<void> {
    try {
      await this.o.writer.partitions.maintain(this.o.clock().getTime(), this.o.retentionDays);
    } catch (error) {
      this.o.onError(error);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
