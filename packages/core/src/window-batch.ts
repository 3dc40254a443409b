import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Gathers items for `windowMs` from the first one and hands them to `send` in one call: work that follows
 * an answer (a marker, a deletion) costs one round trip per window instead of one per item, at the price of
 * being that much later. Sends run one after another. `send` handles its own errors: a rejection is dropped
 * here, so that no caller and no later send is failed by an earlier one. For what the caller waits on, in
 * the same turn, see TurnBatch.
 */
export class WindowBatch<Item> {
  private due: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly send: (items: readonly Item[]) => Promise<void>,
    private readonly windowMs: number,
  ) {}

  add(item: Item): void {
    this.due.push(item);
    this.timer ??= setTimeout(() => void this.sendDue(), this.windowMs);
  }

  /**
   * Sends what is due now and resolves once every send so far is done, or after `boundMs`: before the caller
   * lets its connection go, or where it must see the result at once.
   */
  async flush(boundMs?: number): Promise<void> {
    const sent = this.sendDue();
    if (boundMs === undefined) return sent;
    await Promise.race([sent, sleep(boundMs, undefined, { ref: false })]);
  }

  private sendDue(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.due;
    this.due = [];
    if (items.length > 0) this.sending = this.sending.then(() => this.send(items)).catch(() => undefined);
    return this.sending;
  }
}
