/**
 * Microseconds on the monotonic clock. Every thread of a process reads the same CLOCK_MONOTONIC, so a stamp
 * taken by the publisher on the main thread can be subtracted from a receipt time taken on the receiver thread.
 */
export function nowMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A benchmark phase runs for a fixed time: this is the one place the bench sleeps on purpose. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
