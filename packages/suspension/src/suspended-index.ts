import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import type { HookQueues } from '@hookline/redis';

/**
 * The set of suspended hooks behind the `hookline_hooks_suspended` gauge. Suspensions and re-enables keep it
 * up to date; a hook deleted while suspended (its queue obliterated) is swept out here, since the paused
 * flag, not this set, is the truth.
 */
export class SuspendedIndex {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly hookQueues: Pick<HookQueues, 'pausedMany'>,
  ) {}

  size(): Promise<number> {
    return this.redis.scard(this.keys.suspendedHooks());
  }

  /** Drops members whose queue is no longer paused. Returns how many were dropped. */
  async reconcile(): Promise<number> {
    let cursor = '0';
    let dropped = 0;
    do {
      const [next, ids] = await this.redis.sscan(this.keys.suspendedHooks(), cursor, 'COUNT', 500);
      cursor = next;
      const paused = await this.hookQueues.pausedMany(ids);
      const stale = ids.filter((_, i) => !paused[i]);
      if (stale.length > 0) dropped += await this.redis.srem(this.keys.suspendedHooks(), ...stale);
    } while (cursor !== '0');
    return dropped;
  }
}
