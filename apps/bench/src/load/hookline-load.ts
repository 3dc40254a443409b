import type { Producer } from '@hookline/queue';
import { nowMicros, sleep } from '../clock';
import type { Receivers } from '../receivers/receivers';
import { benchEvent } from './bench-event';
import { runOpenLoop, type OpenLoopRun } from './open-loop';

/** A hook the bench drives: receiver index `index`, alone on account `accountId`, so one event = one delivery. */
export interface BenchHook {
  readonly index: number;
  readonly accountId: string;
  readonly hookId: string;
}

export interface LoadTally {
  readonly published: number;
  readonly received: number;
  readonly publishErrors: number;
  readonly firstError?: string;
  /** Events still not received when the drain gave up. */
  readonly undelivered: number;
  readonly drainMs: number;
}

/** Load through hookline's own producer: publishes, counts what the receivers got, and drains at the end. */
abstract class HooklineLoad {
  protected running = true;
  private published = 0;
  private received = 0;
  private publishErrors = 0;
  private firstError?: string;
  private readonly byIndex: Map<number, BenchHook>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly producer: Producer,
    receivers: Receivers,
    hooks: readonly BenchHook[],
  ) {
    this.byIndex = new Map(hooks.map((h) => [h.index, h]));
    this.unsubscribe = receivers.onReceipt((index) => {
      const hook = this.byIndex.get(index);
      if (!hook) return;
      this.received += 1;
      this.onReceipt(hook);
    });
  }

  protected onReceipt(_hook: BenchHook): void {}

  protected publish(hook: BenchHook, publishedAtMicros = nowMicros()): void {
    this.published += 1;
    this.producer.publish(hook.accountId, benchEvent(publishedAtMicros)).catch((error: unknown) => {
      this.publishErrors += 1;
      this.firstError ??= error instanceof Error ? error.message : String(error);
    });
  }

  /** Stops publishing and waits (up to `timeoutMs`) until every published event has reached its receiver. */
  async finish(timeoutMs: number): Promise<LoadTally> {
    this.running = false;
    await this.stopped();
    const start = Date.now();
    while (this.received + this.publishErrors < this.published && Date.now() - start < timeoutMs)
      await sleep(50);
    this.unsubscribe();
    return {
      published: this.published,
      received: this.received,
      publishErrors: this.publishErrors,
      ...(this.firstError !== undefined ? { firstError: this.firstError } : {}),
      undelivered: Math.max(0, this.published - this.publishErrors - this.received),
      drainMs: Date.now() - start,
    };
  }

  protected stopped(): Promise<unknown> {
    return Promise.resolve();
  }
}

/**
 * Closed loop: each hook starts with `window` events outstanding and gets a new one each time one arrives,
 * so every hook always has work queued and hookline runs as fast as it can.
 */
export class ClosedLoop extends HooklineLoad {
  constructor(producer: Producer, receivers: Receivers, hooks: readonly BenchHook[], window: number) {
    super(producer, receivers, hooks);
    for (let i = 0; i < window; i++) for (const hook of hooks) this.publish(hook);
  }

  protected override onReceipt(hook: BenchHook): void {
    if (this.running) this.publish(hook);
  }
}

/** Open loop: `rate` events per second round robin over the hooks, whatever hookline's pace. */
export class OpenLoop extends HooklineLoad {
  private readonly loop: OpenLoopRun;

  constructor(producer: Producer, receivers: Receivers, hooks: readonly BenchHook[], rate: number) {
    super(producer, receivers, hooks);
    this.loop = runOpenLoop(rate, (seq, dueAt) => this.publish(hooks[seq % hooks.length]!, dueAt));
  }

  protected override stopped(): Promise<unknown> {
    this.loop.stop();
    return this.loop.done;
  }
}
