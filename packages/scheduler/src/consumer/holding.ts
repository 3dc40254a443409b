import { performance } from 'node:perf_hooks';
import type { ActiveJob } from '@hookline/redis';
import { ENGINE_TIMINGS } from '../timings';

/**
 * A hook this process holds the lease of and is delivering to. It lives from the claim until the queue is
 * empty (or the hook must give its slot up), so a process's memory grows with the hooks it serves at once,
 * never with the hooks configured.
 */
export class Holding {
  /** The job whose request is in flight, if any: its lock is extended while it lasts. */
  current?: ActiveJob;
  /**
   * True once the current job's completion is prepared for its outcome's script: that script deletes the lock
   * as it completes the job, so an extension then finding no lock means finished, not lost (the script's own
   * fence tells a lost job).
   */
  finishing = false;
  /**
   * Why the hook is no longer this process's (its lease went to another holder, a lock extension failed, or a
   * step never ended), once known.
   */
  lostBecause?: string;
  /**
   * The outcome's script gave the lease back as the queue ran empty (one Redis): nothing of the hook is this
   * holding's any more, it only ends. A claim of the hook by this process from then on starts a new holding.
   */
  released = false;
  /**
   * This process claimed the hook again while this holding was still ending (see `released`, or an outcome's
   * lost reply whose script had given the lease back): the claim's lease is this process's, and the hook is
   * served by a new holding once this one ends, not given back.
   */
  claimedAgain = false;
  readonly since = performance.now();
  /** When the drain last moved on (took, delivered, finished, waited on the egress proxy): see stuckForMs. */
  private steppedAt = performance.now();

  constructor(
    readonly hookId: string,
    private readonly tokens: TakingTokens,
  ) {}

  get lost(): boolean {
    return this.lostBecause !== undefined;
  }

  lose(why: string): void {
    this.lostBecause ??= why;
  }

  /** A fresh lock token for the next taking of a job of this hook. */
  nextToken(): string {
    return this.tokens.next(this.hookId);
  }

  /** The drain moved on: a step of it ended. */
  stepped(): void {
    this.steppedAt = performance.now();
  }

  /** How long the drain's current step has lasted (a step that never ends must not hold its hook for good). */
  stepForMs(): number {
    return performance.now() - this.steppedAt;
  }

  /** How long this holding has been serving its hook, for fairness when every slot is taken. */
  heldForMs(): number {
    return performance.now() - this.since;
  }
}

/**
 * Lock tokens, one per taking of a job for the whole life of the process. The job lock is the fence of every
 * write about a job, and the scripts treat a caller that shows the lock's own token as the same call sent
 * again (its client resent it after a reconnect, the first reply lost): `job-adopt.lua` hands the job back
 * and `attempt-begin.lua` says send. A token reused by a later taking would pass for such a resend. A job left
 * active when a write failed (a Redis failover) would then be taken again by this process as its own and
 * sent a second time, so a counter per holding (which starts again for the next holding of the same hook)
 * is not enough.
 */
export class TakingTokens {
  private taken = 0;

  constructor(private readonly holderId: string) {}

  next(hookId: string): string {
    this.taken += 1;
    return `${this.holderId}:${hookId}:${this.taken}`;
  }
}

/**
 * Knows whether this process's leases can still be trusted. A lease runs `leaseMs` from the moment its last
 * renewal was sent; a process that stalled past that (SIGSTOP, a long GC pause, a throttled container) may
 * have lost every hook to another process, and must not take another job before it has renewed again.
 */
export class LeaseClock {
  private renewedAt = performance.now();

  constructor(private readonly leaseMs: number) {}

  /** Call with the time (performance.now()) the renewal that succeeded was sent. */
  renewed(sentAt: number): void {
    this.renewedAt = Math.max(this.renewedAt, sentAt);
  }

  /** Leases are trusted for a margin less than their length, so a renewal in flight cannot race expiry. */
  trusted(): boolean {
    return performance.now() - this.renewedAt < this.leaseMs * ENGINE_TIMINGS.trustedLeaseFraction;
  }
}
