import { Partitions } from './partitions';

// What the history's and the audit log's drains share: the loop that moves an outbox into PostgreSQL round
// after round until stopped, and the sorting out of entries the database cannot take.

export interface DrainLoopOptions {
  /** One round of moving: whether it found work (then the next round starts at once). */
  readonly round: () => Promise<boolean>;
  /** Partition upkeep, at the start and then every `maintainEveryMs` (an hour by default). */
  readonly maintain: () => Promise<unknown>;
  readonly maintainEveryMs?: number;
  /**
   * How long a drain that just found nothing waits before it looks again; each further empty look waits twice
   * as long, up to `idleMaxMs` (no longer than `idleMs` by default).
   */
  readonly idleMs?: number;
  readonly idleMaxMs?: number;
  /** A failed round or upkeep: the loop goes on, a round after RETRY_MS. */
  readonly onError: (error: unknown) => void;
}

const RETRY_MS = 1000;

export class DrainLoop {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: DrainLoopOptions) {}

  start(): void {
    if (this.running) return;
    this.running = this.loop();
    this.every(this.o.maintainEveryMs ?? 3600_000, () => this.maintain());
    void this.maintain();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const idleMs = this.o.idleMs ?? 100;
    const idleMaxMs = Math.max(idleMs, this.o.idleMaxMs ?? idleMs);
    let wait = idleMs;
    while (!this.stopping) {
      let took = false;
      try {
        took = await this.o.round();
      } catch (error) {
        this.o.onError(error);
        await this.sleep(RETRY_MS);
        continue;
      }
      // An idle drain looks less often (down to one look each idleMaxMs), a busy one at once.
      if (took) wait = idleMs;
      else {
        await this.sleep(wait);
        wait = Math.min(idleMaxMs, wait * 2);
      }
    }
  }

  private async maintain(): Promise<void> {
    try {
      await this.o.maintain();
    } catch (error) {
      this.o.onError(error);
    }
  }

  /** `task` every `ms`, never two at once, and not keeping the process alive by itself. */
  private every(ms: number, task: () => Promise<void>): void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || this.stopping) return;
      busy = true;
      void task().finally(() => (busy = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
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

/**
 * The entries that parse and are within `retentionDays` of `now`; the others cannot be written at all and are
 * reported to `onDropped` by why, with how many.
 */
export function writable<T>(
  texts: Iterable<string>,
  parse: (text: string) => T | undefined,
  timeOf: (entry: T) => string,
  now: number,
  retentionDays: number,
  onDropped?: (why: string, count: number) => void,
): T[] {
  const horizon = Partitions.horizon(now, retentionDays);
  const kept: T[] = [];
  let unparsable = 0;
  let expired = 0;
  for (const text of texts) {
    const entry = parse(text);
    if (!entry) unparsable++;
    else if (Date.parse(timeOf(entry)) < horizon) expired++;
    else kept.push(entry);
  }
  if (unparsable > 0) onDropped?.('unparsable', unparsable);
  if (expired > 0) onDropped?.('older than retention', expired);
  return kept;
}
