/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. Never a fixed sleep. */
export async function waitUntil<T>(
  check: () => Promise<T> | T,
  what: string,
  timeoutMs = 20000,
  everyMs = 25,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until `done()`, or until `count()` has not changed for `quietMs`, or `maxMs` at most: for things
 * that may never all come (events and records lost in a failover without acknowledgements).
 */
export async function waitUntilSettled(
  count: () => number | Promise<number>,
  done: () => boolean,
  quietMs: number,
  maxMs: number,
): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = await count();
  let changedAt = Date.now();
  while (!done() && Date.now() < deadline && Date.now() - changedAt < quietMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await count();
    if (now !== last) [last, changedAt] = [now, Date.now()];
  }
}
