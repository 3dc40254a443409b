import type { Producer } from '@hookline/queue';
import { nowMicros, sleep } from '../clock';
import type { Receivers } from '../receivers/receivers';
import { benchEvent } from './bench-event';
import { runOpenLoop, type OpenLoopRun } from './open-loop';
import { RoundRobin } from './round-robin';

/** A hook the bench drives: receiver index `index`, alone on account `accountId`, so one event = one delivery. */
export interface BenchHook {
  readonly index: number;
  readonly accountId: string;
  readonly hookId: string;
}

/** Publishes one bench event, stamped `publishedAtMicros`, for the hook's account; rejects if not accepted. */
export type Publish = (hook: BenchHook, publishedAtMicros: number) => Promise<unknown>;

/** Through hookline's own producer, in the bench process. */
export const viaProducer =
  (producer: Producer): Publish =>
  (hook, publishedAtMicros) =>
    producer.publish(hook.accountId, benchEvent(publishedAtMicros));

export interface LoadTally {
  readonly published: number;
  readonly received: number;
  readonly publishErrors: number;
  readonly firstError?: string;
  /** Events still not received when the drain gave up. */
  readonly undelivered: number;
  readonly drainMs: number;
  /** Events published to a hook whose previous event had not arrived yet (the quiet shape keeps this near 0). */
  readonly overlapping?: number;
  /** Quiet closed loop only: hooks its round robin passed over because their last event was still out. */
  readonly skipped?: number;
}

/** Load through a publisher: counts what the receivers got, per hook too, and drains at the end. */
abstract class HooklineLoad {
  protected running = true;
  private published = 0;
  private received = 0;
  private publishErrors = 0;
  private overlapping = 0;
  private firstError?: string;
  private readonly byIndex: Map<number, BenchHook>;
  /** Events published and not yet received (nor failed to publish), by hook index. */
  private readonly outstanding = new Map<number, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly send: Publish,
    receivers: Receivers,
    hooks: readonly BenchHook[],
  ) {
    this.byIndex = new Map(hooks.map((h) => [h.index, h]));
    this.unsubscribe = receivers.onReceipt((index) => {
      const hook = this.byIndex.get(index);
      if (!hook) return;
      this.received += 1;
      this.settle(index);
      this.onReceipt(hook);
    });
  }

  protected onReceipt(_hook: BenchHook): void {}

  protected isOutstanding(hook: BenchHook): boolean {
    return (this.outstanding.get(hook.index) ?? 0) > 0;
  }

  protected publish(hook: BenchHook, publishedAtMicros = nowMicros()): void {
    this.published += 1;
    const before = this.outstanding.get(hook.index) ?? 0;
    if (before > 0) this.overlapping += 1;
    this.outstanding.set(hook.index, before + 1);
    this.send(hook, publishedAtMicros).catch((error: unknown) => {
      this.publishErrors += 1;
      this.firstError ??= error instanceof Error ? error.message : String(error);
      this.settle(hook.index);
    });
  }

  private settle(index: number): void {
    const left = (this.outstanding.get(index) ?? 0) - 1;
    if (left > 0) this.outstanding.set(index, left);
    else this.outstanding.delete(index);
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
      overlapping: this.overlapping,
      ...this.extraTally(),
    };
  }

  protected stopped(): Promise<unknown> {
    return Promise.resolve();
  }

  protected extraTally(): Partial<LoadTally> {
    return {};
  }
}

/**
 * Closed loop: each hook starts with `window` events outstanding and gets a new one each time one arrives,
 * so every hook always has work queued and hookline runs as fast as it can.
 */
export class ClosedLoop extends HooklineLoad {
  constructor(publish: Publish, receivers: Receivers, hooks: readonly BenchHook[], window: number) {
    super(publish, receivers, hooks);
    for (let i = 0; i < window; i++) for (const hook of hooks) this.publish(hook);
  }

  protected override onReceipt(hook: BenchHook): void {
    if (this.running) this.publish(hook);
  }
}

/** Open loop: `rate` events per second round robin over the hooks, whatever hookline's pace. */
export class OpenLoop extends HooklineLoad {
  private readonly loop: OpenLoopRun;

  constructor(publish: Publish, receivers: Receivers, hooks: readonly BenchHook[], rate: number) {
    super(publish, receivers, hooks);
    this.loop = runOpenLoop(rate, (seq, dueAt) => this.publish(hooks[seq % hooks.length]!, dueAt));
  }

  protected override stopped(): Promise<unknown> {
    this.loop.stop();
    return this.loop.done;
  }
}

/**
 * The quiet shape at full speed: `outstanding` events in flight in total (not per hook), each receipt
 * publishing the next event to the next hook in round robin, which passes over a hook whose last event is
 * still out. So no hook ever has two events at once, and every delivery goes to a hook with nothing else
 * queued; with far more hooks than events outstanding, a hook's events are a whole lap apart.
 */
export class QuietLoop extends HooklineLoad {
  private readonly cursor: RoundRobin;

  constructor(
    publish: Publish,
    receivers: Receivers,
    private readonly hooks: readonly BenchHook[],
    outstanding: number,
  ) {
    super(publish, receivers, hooks);
    this.cursor = new RoundRobin(hooks.length);
    for (let i = 0; i < outstanding; i++) this.publishNext();
  }

  protected override onReceipt(): void {
    if (this.running) this.publishNext();
  }

  private publishNext(): void {
    const position = this.cursor.next((p) => this.isOutstanding(this.hooks[p]!));
    if (position !== undefined) this.publish(this.hooks[position]!);
  }

  protected override extraTally(): Partial<LoadTally> {
    return { skipped: this.cursor.skipped };
  }
}
