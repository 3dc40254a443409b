// The attempt's deadline is one timer of hookline's own, and nothing else decides a timeout.

/**
 * undici's own header and body timeouts, off: they would fire in the same turn as the attempt's timer and
 * decide the outcome before the socket is read (see afterPendingReads). The attempt's timer aborts the request,
 * which destroys its connection; a pending connect is bounded by the connector's own timeout (undici ignores an
 * abort during a connect, undici#386).
 */
export const NO_UNDICI_DEADLINES = { headersTimeout: 0, bodyTimeout: 0 } as const;

/** What a timed-out attempt says. */
export const noResponseWithin = (timeoutMs: number) => `no response within ${timeoutMs} ms`;

/**
 * Runs `fire` once the sockets that are readable now have been read. A process that stalled past a deadline
 * (a long GC pause, a throttled container, SIGSTOP) finds the deadline's timer overdue on waking, and Node runs
 * due timers before it reads sockets: an answer the endpoint gave in time, waiting in the socket, would be
 * recorded as a timeout. setImmediate runs after the loop's poll for I/O, so that answer is read first.
 */
export function afterPendingReads(fire: () => void): void {
  setImmediate(fire);
}
