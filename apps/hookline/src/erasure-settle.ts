/**
 * How long an erasure waits before its second pass: a delivery that was on the wire when it was accepted ends
 * within the delivery deadline, and its record reaches the database within a few seconds more.
 */
export function erasureSettleMs(config: { readonly HOOKLINE_DELIVERY_TIMEOUT_MS: number }): number {
  return config.HOOKLINE_DELIVERY_TIMEOUT_MS + 10_000;
}
