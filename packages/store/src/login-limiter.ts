import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';

export type LoginGate =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

// Per email it stops password guessing against one account; per address it stops spraying many accounts
// from one client, with more room because offices share an address. The admin area (HTTP Basic) counts per
// address only: a per-user count would let anyone lock the one admin user out by failing on purpose.
const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 20;

export class LoginLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** `email` undefined: the address alone is counted (the admin area). */
  private subjects(email: string | undefined, ip: string): [string, number][] {
    const address: [string, number] = [this.keys.loginAttempts(`ip:${ip}`), MAX_FAILURES_PER_IP];
    if (email === undefined) return [address];
    return [
      [this.keys.loginAttempts(`email:${email.trim().toLowerCase()}`), MAX_FAILURES_PER_EMAIL],
      address,
    ];
  }

  async check(email: string | undefined, ip: string): Promise<LoginGate> {
    const subjects = this.subjects(email, ip);
    // Sent together rather than pipelined: on a Redis Cluster the two keys may live on different shards.
    const replies = await Promise.all(
      subjects.flatMap(([key]) => [this.redis.get(key), this.redis.ttl(key)] as Promise<unknown>[]),
    );
    let retryAfterSeconds = 0;
    subjects.forEach(([, max], i) => {
      const count = Number(replies[i * 2] ?? 0);
      const ttl = Number(replies[i * 2 + 1] ?? -1);
      if (count >= max) retryAfterSeconds = Math.max(retryAfterSeconds, ttl > 0 ? ttl : WINDOW_SECONDS);
    });
    return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
  }

  /** The window starts at the first failure, so a steady trickle of guesses stays capped. */
  async recordFailure(email: string | undefined, ip: string): Promise<void> {
    // One transaction per key (each in its own slot), so a counter never lives on without its expiry.
    await Promise.all(
      this.subjects(email, ip).map(([key]) =>
        this.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').exec(),
      ),
    );
  }

  /** A correct password clears the account's count; the address keeps its count. */
  async recordSuccess(email: string, ip: string): Promise<void> {
    const [emailSubject] = this.subjects(email, ip);
    if (emailSubject) await this.redis.del(emailSubject[0]);
  }
}
