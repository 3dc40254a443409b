/**
 * Every timing of the delivery engine, in one table. The base figures are set here; every other figure is
 * derived from them and the delivery deadline (HOOKLINE_DELIVERY_TIMEOUT_MS), by `engineFigures`, which the
 * consumer, the worker and DESIGN.md all read (a test checks that the note's table is this one). Change a
 * base figure here and the note's table, the README's recovery times and the code move together.
 */
export const ENGINE_TIMINGS = {
  /** A hook's lease: how long a process that died or froze keeps the hook from the others. */
  leaseMs: 10_000,
  /** When every slot of a process is taken, a hook held this long gives its slot up and queues again. */
  tenureMs: 1_000,
  /** Longest wait between two looks at a job another holder still has locked. */
  lockPollMs: 1_000,
  /** A job's lock outlasts the delivery deadline by this much: marking before the request, recording after. */
  lockMarginMs: 10_000,
  /** A request starts only while the job's lock outlasts the deadline by at least this much. */
  sendMarginMs: 2_000,
  /** Leases are trusted for this fraction of their length after the last renewal was sent. */
  trustedLeaseFraction: 0.8,
  /** Leases (and the roster's heartbeat) are renewed this many times per lease. */
  renewalsPerLease: 3,
  /** Expired leases are looked for this many times per lease, by every worker. */
  reclaimsPerLease: 2,
  /**
   * How long a worker's wait for a signalled hook (BZPOPMIN) lasts before it is sent again. A signal ends the
   * wait at once, and no recovery waits for its end: only an idle worker's cost (one command per wait).
   */
  readyWaitMs: 5_000,
  /** Job locks are extended this many times per lock, and never more often than the floor. */
  lockExtensionsPerLock: 5,
  lockExtensionFloorMs: 250,
  /**
   * A holding whose step (a take, a delivery, a finish) has lasted this many job locks waits on something that
   * will not end; it gives its hook up (the consumer's dropStuck). A delivery's longest legitimate step (the
   * deadline, 15 s of waiting for the mark's acknowledgement, 10 s of recording the outcome, a failover's
   * retries) stays well under it.
   */
  stuckStepLocks: 2,
} as const;

export type EngineTimings = typeof ENGINE_TIMINGS;

/** The consumer's own figures, which tests may shorten. */
export interface ConsumerTimings {
  leaseMs: number;
  tenureMs: number;
  lockPollMs: number;
}

export const DEFAULT_TIMINGS: ConsumerTimings = {
  leaseMs: ENGINE_TIMINGS.leaseMs,
  tenureMs: ENGINE_TIMINGS.tenureMs,
  lockPollMs: ENGINE_TIMINGS.lockPollMs,
};

export interface EngineFigures {
  readonly lockMs: number;
  readonly renewEveryMs: number;
  readonly reclaimEveryMs: number;
  readonly lockExtendEveryMs: number;
  readonly trustedForMs: number;
  /** SIGTERM: how long a worker waits for its requests in flight before it gives its hooks back. */
  readonly closeBoundMs: number;
  /**
   * After a worker is killed -9 mid-request, the longest before another worker carries on with the hook:
   * its lease is found expired (lease + one reclaim period) and its job's lock runs out (a lock extended just
   * before the kill), then one poll.
   */
  readonly carryOnAfterKillMs: number;
}

/** Every derived figure, for a delivery deadline and (tests) shortened consumer timings. */
export function engineFigures(
  deadlineMs: number,
  consumer: ConsumerTimings = DEFAULT_TIMINGS,
  lockMs = deadlineMs + ENGINE_TIMINGS.lockMarginMs,
): EngineFigures {
  const t = ENGINE_TIMINGS;
  const reclaimEveryMs = Math.floor(consumer.leaseMs / t.reclaimsPerLease);
  return {
    lockMs,
    renewEveryMs: Math.floor(consumer.leaseMs / t.renewalsPerLease),
    reclaimEveryMs,
    lockExtendEveryMs: Math.max(t.lockExtensionFloorMs, Math.floor(lockMs / t.lockExtensionsPerLock)),
    trustedForMs: consumer.leaseMs * t.trustedLeaseFraction,
    closeBoundMs: deadlineMs + t.sendMarginMs,
    carryOnAfterKillMs: Math.max(consumer.leaseMs + reclaimEveryMs, lockMs) + consumer.lockPollMs,
  };
}

/** The table DESIGN.md prints, for the default 15 s deadline: [figure, value, how it is set]. */
export function timingTable(deadlineMs = 15_000): string[][] {
  const t = ENGINE_TIMINGS;
  const f = engineFigures(deadlineMs);
  const s = (ms: number) => `${ms / 1000} s`;
  return [
    ['delivery deadline', s(deadlineMs), 'HOOKLINE_DELIVERY_TIMEOUT_MS'],
    ['lease', s(t.leaseMs), 'leaseMs'],
    ['tenure when every slot is taken', s(t.tenureMs), 'tenureMs'],
    ['poll of a job locked elsewhere', s(t.lockPollMs), 'lockPollMs'],
    ['job lock', s(f.lockMs), 'deadline + lockMarginMs'],
    ['lock left needed to send', s(deadlineMs + t.sendMarginMs), 'deadline + sendMarginMs'],
    ['lease renewal and heartbeat', s(f.renewEveryMs), 'lease ÷ renewalsPerLease'],
    ['look for expired leases', s(f.reclaimEveryMs), 'lease ÷ reclaimsPerLease'],
    ['idle wait for a signalled hook', s(t.readyWaitMs), 'readyWaitMs'],
    ['lock extension', s(f.lockExtendEveryMs), 'lock ÷ lockExtensionsPerLock (≥ floor)'],
    ['leases trusted after a renewal', s(f.trustedForMs), 'lease × trustedLeaseFraction'],
    ['SIGTERM wait for requests in flight', s(f.closeBoundMs), 'deadline + sendMarginMs'],
    ['carry-on after kill -9 (worst case)', s(f.carryOnAfterKillMs), 'max(lease + reclaim, lock) + poll'],
    ['a holding step taken for stuck', s(f.lockMs * t.stuckStepLocks), 'lock × stuckStepLocks'],
  ];
}
