import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys';

/** A hook whose next event waits on the egress proxy: since when, the proxy's last word, and which kind it was. */
export interface EgressWait {
  readonly since: string;
  readonly reason: string;
  readonly cause: EgressWaitCause;
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
 * one transaction. The index entry is added before the hook's entry and removed after it, so the fleet's
 * view always holds every hook whose page shows a wait: /readyz never answers ok while a hook's page says its
 * deliveries wait (it may say so a moment longer than the page does). The fleet's latest try is written with
 * the index, in its slot, so /readyz names the proxy's refusal from the moment it counts a hook.
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
      .hset(this.keys.egressLatest(), 'hook', hookId, 'reason', reason, 'cause', cause)
      .pexpire(this.keys.egressLatest(), ttlMs)
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
    const [since, reason, cause] = await this.redis.hmget(
      this.keys.hookEgressWait(hookId),
      'since',
      'reason',
      'cause',
    );
    return since && reason
      ? { since, reason, cause: cause === 'unreachable' ? 'unreachable' : 'refused' }
      : undefined;
  }

  /** The hooks waiting now, and the latest kept-back try among them (the entry renewed last expires last). */
  async fleet(now: Date): Promise<EgressFleetWait | undefined> {
    // A few reads, whatever the number of waiting hooks: /readyz is polled. The fleet's latest try is written
    // with the index, so it names the hook's refusal even before the hook's own entry is there; when another
    // hook's try was written last and has since ended, the hook's own entry says it.
    const index = this.keys.egressWaiting();
    const [hooks, latest, [latestHook, latestReason, latestCause]] = await Promise.all([
      this.redis.zcount(index, `(${now.getTime()}`, '+inf'),
      this.redis.zrevrangebyscore(index, '+inf', `(${now.getTime()}`, 'LIMIT', 0, 1),
      this.redis.hmget(this.keys.egressLatest(), 'hook', 'reason', 'cause'),
    ]);
    if (hooks === 0 || !latest[0]) return undefined;
    const [reason, cause] =
      latestHook === latest[0] && latestReason
        ? [latestReason, latestCause]
        : await this.redis.hmget(this.keys.hookEgressWait(latest[0]), 'reason', 'cause');
    return {
      hooks,
      cause: cause === 'unreachable' ? 'unreachable' : 'refused',
      reason: reason ?? 'the egress proxy kept a delivery back',
    };
  }
}
