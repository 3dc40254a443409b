import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys';

/** A hook whose next event waits on the egress proxy: since when, and the proxy's last word. */
export interface EgressWait {
  readonly since: string;
  readonly reason: string;
}

/**
 * Where workers say that a hook's deliveries wait on the egress proxy, for the hook's answers and page. The
 * entry expires by itself `ttlMs` after the last failed try, so a worker that died while waiting, or a proxy
 * that came back while another process delivered, leaves nothing stale for long.
 */
export class EgressWaits {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Records one more refused try; `since` stays the first of the run. */
  async waiting(hookId: string, reason: string, at: Date, ttlMs: number): Promise<void> {
    const key = this.keys.hookEgressWait(hookId);
    await this.redis
      .multi()
      .hsetnx(key, 'since', at.toISOString())
      .hset(key, 'reason', reason)
      .pexpire(key, ttlMs)
      .exec();
  }

  async clear(hookId: string): Promise<void> {
    await this.redis.del(this.keys.hookEgressWait(hookId));
  }

  async get(hookId: string): Promise<EgressWait | undefined> {
    const [since, reason] = await this.redis.hmget(this.keys.hookEgressWait(hookId), 'since', 'reason');
    return since && reason ? { since, reason } : undefined;
  }
}
