import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@hookline/core';
import { SCRIPTS, type RedisKeys } from '@hookline/redis';

// The ready set is how a hook with work finds a worker process without every process watching every queue.
// Producers add the hook id (ZADD NX, so a busy hook is one entry however many events arrive); a process
// claims a batch, takes a lease on each, attaches a BullMQ Worker, and gives the lease back when the queue
// has been idle for a while. Leases expire when a process dies, and any process puts expired hooks back
// into the ready set, so a crash never strands a queue.

export class ReadySet {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Tells the fleet that a hook has (or may have) events to deliver. A hook whose lease is live is skipped:
   * its holder is attached and takes the events itself, and re-checks the queue after letting go (so the
   * caller must have added its jobs first). Idempotent, one round trip.
   */
  async signal(hookIds: readonly string[]): Promise<void> {
    if (hookIds.length === 0) return;
    await SCRIPTS.readySignal.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [this.clock().getTime(), ...hookIds],
    );
  }

  /** Blocks up to `timeoutSeconds` for one signalled hook; returns its id (already removed from the set). */
  async waitForOne(blocking: Redis, timeoutSeconds: number): Promise<string | undefined> {
    const popped = await blocking.bzpopmin(this.keys.readyHooks(), timeoutSeconds);
    return popped ? popped[1] : undefined;
  }

  async claim(alreadyPopped: readonly string[], want: number, leaseMs: number): Promise<string[]> {
    const now = this.clock().getTime();
    return (await SCRIPTS.readyClaim.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [now, now + leaseMs, want, ...alreadyPopped],
    )) as string[];
  }

  /** How many hooks are waiting for a process to attach. */
  async size(): Promise<number> {
    return this.redis.zcard(this.keys.readyHooks());
  }

  async renew(hookIds: readonly string[], leaseMs: number): Promise<void> {
    if (hookIds.length === 0) return;
    const expiry = this.clock().getTime() + leaseMs;
    await this.redis.zadd(this.keys.hookLeases(), 'XX', ...hookIds.flatMap((id) => [expiry, id]));
  }

  async release(hookId: string): Promise<void> {
    await this.redis.zrem(this.keys.hookLeases(), hookId);
  }

  async reclaimExpired(limit = 1000): Promise<string[]> {
    return (await SCRIPTS.readyReclaim.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [this.clock().getTime(), limit],
    )) as string[];
  }
}
