import { nextBeat } from '@hookline/core';

/** What a round did: how much it took, and whether it knows more is waiting (it took all it may, or left some). */
export interface RoundDone {
  readonly took: number;
  readonly more: boolean;
}

export interface DrainLoopOptions {
  /**
   * One round of work: how much it took (0 when there was nothing to do), or a RoundDone. A number: the loop
   * goes round again at once while there is work. A RoundDone whose round took some work but knows of no more
   * (the writer keeps up) waits `idleMs` before the next, so that at a steady rate each round gathers that
   * long's work instead of a few entries at a time: what a round costs (its scripts, its database statement)
   * is shared by more entries, and an entry reaches the database that much later, well within a second.
   */
  readonly round: () => Promise<number | RoundDone>;
  /**
   * How soon a loop that just found nothing looks again; each further empty look waits twice as long, up to
   * `idleMaxMs`. Together they bound how late an entry reaches the database, and what an idle fleet costs:
   * an idle loop asks Redis once per `idleMaxMs`, not ten times a second.
   */
  readonly idleMs?: number;
  readonly idleMaxMs?: number;
  readonly onError: (error: unknown) => void;
}

const RETRY_MS = 1000;
export const DRAIN_IDLE_MS = 100;
export const DRAIN_IDLE_MAX_MS = 1000;

/**
 * The loop of a writer that moves entries from Redis to PostgreSQL (the history's outboxes, the audit log's):
 * rounds back to back while work is left, gathering for `idleMs` between rounds that keep up, backing off while
 * there is none, one second after a failure.
 * `stop` ends the wait at once and resolves when the round in progress has ended.
 */
export class DrainLoop {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(private readonly o: DrainLoopOptions) {}

  start(): void {
    this.running ??= this.loop();
  }

  get stopped(): boolean {
    return this.stopping;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const idleMs = this.o.idleMs ?? DRAIN_IDLE_MS;
    const idleMaxMs = Math.max(idleMs, this.o.idleMaxMs ?? DRAIN_IDLE_MAX_MS);
    let wait = idleMs;
    while (!this.stopping) {
      let done: RoundDone;
      try {
        const result = await this.o.round();
        done = typeof result === 'number' ? { took: result, more: result > 0 } : result;
      } catch (error) {
        this.o.onError(error);
        await this.sleep(RETRY_MS);
        continue;
      }
      if (done.took > 0) {
        wait = idleMs;
        if (!done.more) await this.sleep(idleMs);
      } else {
        // At rest (the longest wait), on the process's beat with its other once-a-second loops (core/beat.ts).
        await (wait === idleMaxMs ? this.beat(wait) : this.sleep(wait));
        wait = Math.min(idleMaxMs, wait * 2);
      }
    }
  }

  private beat(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const next = nextBeat(ms);
    this.wake = () => next.cancel();
    return next.done;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
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
 * The entries of a slice that can be written: parsed, and not older than the retention `horizon` (ms). The
 * others are dropped, each kind counted once to `onDropped`: an unparsable entry would block its outbox for
 * good, and one past retention has no partition to go to.
 */
export function writableEntries<T>(
  texts: readonly string[],
  parse: (text: string) => T | undefined,
  timeOf: (entry: T) => string,
  horizon: number,
  onDropped?: (why: string, count: number) => void,
): T[] {
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
