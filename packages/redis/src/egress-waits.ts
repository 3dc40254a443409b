import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys';

/** A hook whose next event waits on the egress proxy: since when, and the proxy's last word. */
export interface EgressWait {
  readonly since: string;
  readonly reason: string;
}

/** Why the proxy kept a try back: it answered CONNECT with a refusal, or it did not answer at all. */
export type EgressWaitCause = 'refused' | 'unreachable';

/** The fleet's view, for readiness: how many hooks wait, and the latest try kept back. */
export interface EgressFleetWait {
  readonly hooks: number;
  readonly cause: EgressWaitCause;
  readonly reason: string;
}

/**
 * Where workers say that a hook's deliveries wait on the egress proxy, for the hook's answers and page, and
 * fleet-wide for /readyz. The entry expires by itself `ttlMs` after the last failed try, so a worker that died
 * while waiting, or a proxy that came back while another process delivered, leaves nothing stale for long.
 * The hook's entry and the fleet index live in different cluster slots: written one after the other, never in
 * one transaction. The hook's entry is what counts: the index entry is added before it and removed after it,
 * and the fleet's view counts only hooks whose entry is there, so /readyz never disagrees with the hook's
 * page (a reader who saw the hook's wait begin or end saw the fleet's with it).
 */
export class EgressWaits {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Records one more refused try; `since` stays the first of the run. */
  async waiting(
    hookId: string,
    reason: string,
    at: Date,
    ttlMs: number,
    cause: EgressWaitCause = 'refused',
  ): Promise<void> {
    const key = this.keys.hookEgressWait(hookId);
    const expiresAt = at.getTime() + ttlMs;
    // The index first: once the hook's entry is there, the fleet's view counts it too.
    await this.redis
      .multi()
      .zadd(this.keys.egressWaiting(), expiresAt, hookId)
      // Entries of waits nobody renewed (a worker gone, a hook deleted): the index stays as small as the waits.
      .zremrangebyscore(this.keys.egressWaiting(), '-inf', at.getTime())
      .pexpire(this.keys.egressWaiting(), ttlMs)
      .exec();
    await this.redis
      .multi()
      .hsetnx(key, 'since', at.toISOString())
      .hset(key, 'reason', reason, 'cause', cause)
      .pexpire(key, ttlMs)
      .exec();
  }

  async clear(hookId: string): Promise<void> {
    // The hook's entry first: from then on the fleet's view leaves the hook out, index entry or not.
    await this.redis.del(this.keys.hookEgressWait(hookId));
    await this.redis.zrem(this.keys.egressWaiting(), hookId);
  }

  async get(hookId: string): Promise<EgressWait | undefined> {
    const [since, reason] = await this.redis.hmget(this.keys.hookEgressWait(hookId), 'since', 'reason');
    return since && reason ? { since, reason } : undefined;
  }

  /** The hooks waiting now, and the latest kept-back try among them (the entry renewed last expires last). */
  async fleet(now: Date): Promise<EgressFleetWait | undefined> {
    // Latest first. An index entry whose hook has no entry is a wait just beginning or just cleared: not counted.
    const listed = await this.redis.zrevrangebyscore(this.keys.egressWaiting(), '+inf', `(${now.getTime()}`);
    const entries = await Promise.all(
      listed.map((hookId) => this.redis.hmget(this.keys.hookEgressWait(hookId), 'reason', 'cause')),
    );
    const waiting = entries.filter(([reason]) => reason !== null);
    const [latest] = waiting;
    if (!latest) return undefined;
    const [reason, cause] = latest;
    return {
      hooks: waiting.length,
      cause: cause === 'unreachable' ? 'unreachable' : 'refused',
      reason: reason!,
    };
  }
}
