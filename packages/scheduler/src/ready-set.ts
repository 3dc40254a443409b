import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@hookline/core';
import { runConfirmed, type LuaScript, type RedisKeys } from '@hookline/redis';
import { ENGINE_SCRIPTS } from './scripts';

// The ready set is how a hook with work finds a worker process without every process watching every queue.
// Producers add the hook id (ZADD NX, so a busy hook is one entry however many events arrive); a process
// claims a batch, takes a lease on each (with its holder id), delivers the hook's queue until it is empty,
// and gives the lease back. Leases expire when a process dies or freezes, and any process puts expired hooks
// back into the ready set, so a crash never strands a queue.

const runScript = (redis: Redis, script: LuaScript, keys: string[], args: (string | number)[]) =>
  script.run(redis, keys, args);

export type HookStatus = 'signalled' | 'leased' | 'none';
const STATUS: readonly HookStatus[] = ['none', 'signalled', 'leased'];

export class ReadySet {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Tells the fleet that a hook has (or may have) events to deliver. A hook whose lease is live is only
   * marked: its holder is on it and takes the events itself, and if it has already seen its queue empty,
   * giving the lease back puts the hook into the ready set (so the caller must have added its jobs first).
   * Every hook signalled joins the index of hooks with work in the same script (see WorkIndex). Idempotent,
   * one round trip. `confirmed`: on a client that requires replica acknowledgements, throws unless the
   * replicas have it (a publish's signal, see FanOut).
   */
  async signal(hookIds: readonly string[], { confirmed = false } = {}): Promise<void> {
    if (hookIds.length === 0) return;
    await (confirmed ? runConfirmed : runScript)(
      this.redis,
      ENGINE_SCRIPTS.readySignal,
      this.keys.signalKeys(),
      [this.clock().getTime(), ...hookIds],
    );
  }

  /** Blocks up to `timeoutSeconds` for one signalled hook; returns its id (already removed from the set). */
  async waitForOne(blocking: Redis, timeoutSeconds: number): Promise<string | undefined> {
    const popped = await blocking.bzpopmin(this.keys.readyHooks(), timeoutSeconds);
    return popped ? popped[1] : undefined;
  }

  /** The ready set and the lease keys, the KEYS of the claim, release and reclaim scripts. */
  private leaseKeys(): string[] {
    return this.keys.leaseKeys();
  }

  async claim(
    alreadyPopped: readonly string[],
    want: number,
    leaseMs: number,
    holder: string,
  ): Promise<string[]> {
    const now = this.clock().getTime();
    return (await ENGINE_SCRIPTS.readyClaim.run(this.redis, this.leaseKeys(), [
      now,
      now + leaseMs,
      want,
      holder,
      ...alreadyPopped,
    ])) as string[];
  }

  /** How many hooks are waiting for a process to attach. */
  async size(): Promise<number> {
    return this.redis.zcard(this.keys.readyHooks());
  }

  /** How many hooks a worker process is delivering to now (live leases). */
  async leasedCount(): Promise<number> {
    return this.redis.zcount(this.keys.hookLeases(), `(${this.clock().getTime()}`, '+inf');
  }

  /**
   * Where each of these hooks stands with the workers: `signalled` (in the ready set, waiting to be claimed),
   * `leased` (a worker is on it) or `none` (no worker will come to it by itself). One script in the
   * scheduler's slot for the whole batch.
   */
  async status(hookIds: readonly string[]): Promise<HookStatus[]> {
    if (hookIds.length === 0) return [];
    const codes = (await ENGINE_SCRIPTS.readyStatus.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [this.clock().getTime(), ...hookIds],
    )) as number[];
    return codes.map((code) => STATUS[code] ?? 'none');
  }

  /** Extends `holder`'s leases; returns the hooks it no longer holds (it must stop serving them). */
  async renew(hookIds: readonly string[], leaseMs: number, holder: string): Promise<string[]> {
    if (hookIds.length === 0) return [];
    const now = this.clock().getTime();
    return (await ENGINE_SCRIPTS.readyRenew.run(
      this.redis,
      [this.keys.hookLeases(), this.keys.hookLeaseHolders()],
      [now, now + leaseMs, holder, ...hookIds],
    )) as string[];
  }

  /**
   * Gives the leases back that `holder` still has; true for each hook whose lease it gave back. A hook that
   * was signalled while leased goes back into the ready set at once.
   */
  async release(hookIds: readonly string[], holder: string): Promise<boolean[]> {
    if (hookIds.length === 0) return [];
    const released = (await ENGINE_SCRIPTS.readyRelease.run(this.redis, this.leaseKeys(), [
      this.clock().getTime(),
      holder,
      ...hookIds,
    ])) as number[];
    return released.map((code) => Number(code) === 1);
  }

  async reclaimExpired(limit = 1000): Promise<string[]> {
    return (await ENGINE_SCRIPTS.readyReclaim.run(this.redis, this.leaseKeys(), [
      this.clock().getTime(),
      limit,
    ])) as string[];
  }
}
