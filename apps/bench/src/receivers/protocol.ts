// Messages between the bench's main thread and its receiver thread. The receivers run on a thread of their
// own so that the publisher's work never delays the moment a receipt is timed.

export type ToReceivers =
  /** From now on, requests to these hooks are never answered (the worker's deadline ends them). */
  | { readonly type: 'hang'; readonly id: number; readonly hooks: readonly number[] }
  /** Latencies of receipts timed within [from, to] (monotonic µs); older samples are then dropped. */
  | { readonly type: 'collect'; readonly id: number; readonly from: number; readonly to: number }
  | { readonly type: 'stop'; readonly id: number };

export interface CollectedWindow {
  /** publish->receipt latencies (µs) of hooks that answer. */
  readonly healthy: Float64Array;
  /** Receipts at hooks that were hanging (not timed: they wait for the deadline, by design). */
  readonly hangingCount: number;
}

export type FromReceivers =
  | { readonly type: 'ready'; readonly ports: readonly number[] }
  | { readonly type: 'done'; readonly id: number; readonly window?: CollectedWindow }
  /** Hook indices of requests that arrived since the last batch; drives the closed loops. */
  | { readonly type: 'receipts'; readonly hooks: Int32Array };

/** Paths the receivers understand: hook `i` posts to /h/i; idle hooks get /idle/i and never receive. */
export const hookPath = (index: number) => `/h/${index}`;
export const idlePath = (index: number) => `/idle/${index}`;

export function hookIndexOfPath(path: string | undefined): number | undefined {
  if (!path?.startsWith('/h/')) return undefined;
  const index = Number(path.slice(3));
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}
