import { FANOUT_FENCED_AFTER_MS } from '@hookline/queue';

/**
 * How long an erasure waits before its second pass: a delivery that was on the wire when it was accepted ends
 * within the delivery deadline, and its record reaches the database within a few seconds more. And never less
 * than FANOUT_FENCED_AFTER_MS: an event accepted before the erasure by a process that then froze before
 * queuing it is either queued before the second pass (which removes it; the fence is still up) or never (its
 * fan-out is refused as stale, and its inbox entry went with the first pass).
 */
export function erasureSettleMs(config: { readonly HOOKLINE_DELIVERY_TIMEOUT_MS: number }): number {
  return Math.max(config.HOOKLINE_DELIVERY_TIMEOUT_MS + 10_000, FANOUT_FENCED_AFTER_MS);
}
