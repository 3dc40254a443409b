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
