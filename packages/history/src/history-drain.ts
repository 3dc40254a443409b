import type { AttemptRecord, Clock } from '@hookline/core';
import type { HistoryOutbox, OutboxSlice } from '@hookline/redis';
import type { HistoryWriter } from './history-writer';
import { DrainLoop, writableEntries } from './drain-loop';
import { Partitions } from './partitions';

export interface HistoryDrainOptions {
  readonly outbox: HistoryOutbox;
  readonly writer: HistoryWriter;
  readonly partitions: Partitions;
  readonly retentionDays: number;
  readonly clock: Clock;
  /** Hooks taken per round; each brings up to OUTBOX_READ_MAX records. */
  readonly hooksPerRound?: number;
  /** How long a writer holds the hooks it took: past this, another writer takes them over. */
  readonly holdMs?: number;
  /**
   * How often a writer that just found nothing looks for work again; each further empty look waits twice as
   * long, up to `idleMaxMs`. Together they bound how late a record is readable in the database.
   */
  readonly idleMs?: number;
  readonly idleMaxMs?: number;
  readonly maintainEveryMs?: number;
  readonly onWritten?: (count: number) => void;
  /** A record that cannot be written at all (unparsable, or older than retention): dropped, and said why. */
  readonly onDropped?: (why: string, count: number) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * Moves attempt records from the hooks' Redis outboxes to PostgreSQL: takes marked hooks with a hold, reads
 * their oldest records, writes them in one statement, then trims exactly what was written. Killed at any
 * point, it loses nothing (records leave Redis only after the database has them) and duplicates nothing
 * (a record written twice is a conflict the insert ignores). Also drops partitions past retention. Markers
 * lost in a crash are not looked for here: the watchdog, which looks at every hook with work, puts them back
 * (`Watchdog`), so no periodic work of the writer grows with the number of hooks.
 */
export class HistoryDrain {
  private readonly loop: DrainLoop;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: HistoryDrainOptions) {
    this.loop = new DrainLoop({
      round: async () => {
        const done = await this.round();
        if (done.records > 0) this.o.onWritten?.(done.records);
        return { took: done.hooks, more: done.more };
      },
      ...(o.idleMs !== undefined ? { idleMs: o.idleMs } : {}),
      ...(o.idleMaxMs !== undefined ? { idleMaxMs: o.idleMaxMs } : {}),
      onError: o.onError,
    });
  }

  start(): void {
    if (this.timers.length > 0) return;
    this.loop.start();
    this.every(this.o.maintainEveryMs ?? 3600_000, () => this.maintain());
    void this.maintain();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.loop.stop();
  }

  /**
   * One round: how many hooks it took (0 when there was nothing to do), how many records it wrote, and whether
   * more is known to wait (it took as many hooks as a round may, or a hook still has records).
   */
  async round(): Promise<{ hooks: number; records: number; more: boolean }> {
    const { outbox } = this.o;
    const now = this.o.clock().getTime();
    const holdUntil = now + (this.o.holdMs ?? 30_000);
    const perRound = this.o.hooksPerRound ?? 200;
    const claim = await outbox.claim(perRound, holdUntil, now);
    const hooks = claim.hookIds;
    if (hooks.length === 0) return { hooks: 0, records: 0, more: false };
    let more = hooks.length === perRound;
    let records: AttemptRecord[];
    try {
      const slices = await outbox.read(hooks);
      records = this.records(slices, now);
      await this.o.writer.write(records);
      const left = await outbox.ackAll(slices);
      // A hook with records left (a busy one, or one another writer trimmed first) is marked now, so the next
      // round takes it again at once; the others give their markers back unless marked again meanwhile.
      const again = hooks.filter((_, i) => left[i] !== 0);
      more ||= again.length > 0;
      await outbox.mark(again);
      await outbox.release(
        hooks.filter((_, i) => left[i] === 0),
        holdUntil,
      );
    } catch (error) {
      // Nothing was trimmed that is not written; handing the hooks back at their marks makes them due again
      // right away, and keeps the lag counting from when their records began to wait.
      await outbox.handBack(claim).catch(() => undefined);
      throw error;
    }
    return { hooks: hooks.length, records: records.length, more };
  }

  private records(slices: readonly OutboxSlice[], now: number): AttemptRecord[] {
    const horizon = Partitions.horizon(now, this.o.retentionDays);
    return writableEntries(
      slices.flatMap((slice) => slice.entries),
      parseRecord,
      (record) => record.attempted_at,
      horizon,
      this.o.onDropped,
    );
  }

  private async maintain(): Promise<void> {
    try {
      await this.o.partitions.maintain(this.o.clock().getTime(), this.o.retentionDays);
    } catch (error) {
      this.o.onError(error);
    }
  }

  private every(ms: number, task: () => Promise<void>): void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || this.loop.stopped) return;
      busy = true;
      void task().finally(() => (busy = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

function parseRecord(entry: string): AttemptRecord | undefined {
  try {
    const value = JSON.parse(entry) as Partial<AttemptRecord>;
    const ok =
      typeof value.attempt_id === 'string' &&
      typeof value.hook_id === 'string' &&
      typeof value.account_id === 'string' &&
      typeof value.attempted_at === 'string' &&
      !Number.isNaN(Date.parse(value.attempted_at));
    return ok ? (value as AttemptRecord) : undefined;
  } catch {
    return undefined;
  }
}
