import { performance } from 'node:perf_hooks';
import type { ActiveJob } from '@hookline/redis';

/**
 * A hook this process holds the lease of and is delivering to. It lives from the claim until the queue is
 * empty (or the hook must give its slot up), so a process's memory grows with the hooks it serves at once,
 * never with the hooks configured.
 */
export class Holding {
  /** The job whose request is in flight, if any: its lock is extended while it lasts. */
  current?: ActiveJob;
  /** Why the hook is no longer this process's (its lease or its job went to another holder), once known. */
  lostBecause?: string;
  readonly since = performance.now();
  private tokens = 0;

  constructor(
    readonly hookId: string,
    private readonly holderId: string,
  ) {}

  get lost(): boolean {
    return this.lostBecause !== undefined;
  }

  lose(why: string): void {
    this.lostBecause ??= why;
  }

  /** A fresh lock token for the next job taken (the job lock's fence names both process and holding). */
  nextToken(): string {
    this.tokens += 1;
    return `${this.holderId}:${this.hookId}:${this.tokens}`;
  }

  /** How long this holding has been serving its hook, for fairness when every slot is taken. */
  heldForMs(): number {
    return performance.now() - this.since;
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
    return performance.now() - this.renewedAt < this.leaseMs * 0.8;
  }
}
