import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import { STORE_SCRIPTS } from './scripts';

export type LoginGate =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

// Per email it stops password guessing against one account; per address it stops spraying many accounts
// from one client, with more room because offices share an address. The admin area (HTTP Basic) counts per
// address only: a per-user count would let anyone lock the one admin user out by failing on purpose. Each front
// door counts an address apart: a customer's mistyped passwords must not lock the admins of that office out of
// Bull Board, nor guesses at the admin password every customer behind the address out of the website.
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
    if (email === undefined) return [[this.keys.loginAttempts(`admin-ip:${ip}`), MAX_FAILURES_PER_IP]];
    const address: [string, number] = [this.keys.loginAttempts(`ip:${ip}`), MAX_FAILURES_PER_IP];
    return [
      [this.keys.loginAttempts(`email:${email.trim().toLowerCase()}`), MAX_FAILURES_PER_EMAIL],
      address,
    ];
  }

  /** Whether an attempt would be let through now, counting nothing (a request with no credentials at all). */
  async check(email: string | undefined, ip: string): Promise<LoginGate> {
    const subjects = this.subjects(email, ip);
    // Sent together rather than pipelined: on a Redis Cluster the two keys may live on different shards.
    const replies = await Promise.all(
      subjects.flatMap(([key]) => [this.redis.get(key), this.redis.ttl(key)] as Promise<unknown>[]),
    );
    return gate(
      subjects.map(([, max], i) => [Number(replies[i * 2] ?? 0) + 1, max, Number(replies[i * 2 + 1])]),
    );
  }

  /**
   * Counts an attempt before the password is checked, so parallel guesses cannot all pass a check made
   * before any of them is counted: of 30 at once, exactly the allowance gets through. A correct password
   * then gives the attempt back (`succeeded`); a wrong one leaves it counted. An attempt refused here was never
   * checked, so it is given back at once: only wrong passwords count, and tries at a locked account (its
   * owner's correct password included) do not use up the allowance of everyone else behind the address. The
   * window starts at the first attempt, so a steady trickle of guesses stays capped.
   */
  async attempt(email: string | undefined, ip: string): Promise<LoginAttempt> {
    const subjects = this.subjects(email, ip);
    // One transaction per key (each in its own slot), so a counter never lives on without its expiry.
    const replies = await Promise.all(
      subjects.map(([key]) => this.redis.multi().incr(key).expire(key, WINDOW_SECONDS, 'NX').ttl(key).exec()),
    );
    const counted = subjects.map(([, max], i): [number, number, number] => {
      const reply = replies[i] ?? [];
      return [Number(reply[0]?.[1] ?? 0), max, Number(reply[2]?.[1] ?? -1)];
    });
    const verdict = gate(counted);
    if (!verdict.allowed) {
      await Promise.all(subjects.map(([key]) => this.takeOff(key)));
      return verdict;
    }
    return { allowed: true, succeeded: () => this.giveBack(email, ip) };
  }

  /** A correct password clears the account's count and takes this attempt off the address's count. */
  private async giveBack(email: string | undefined, ip: string): Promise<void> {
    const [first, second] = this.subjects(email, ip);
    const address = second ?? first;
    await Promise.all([
      ...(second && first ? [this.redis.del(first[0])] : []),
      ...(address ? [this.takeOff(address[0])] : []),
    ]);
  }

  private async takeOff(key: string): Promise<void> {
    await STORE_SCRIPTS.loginGiveBack.run(this.redis, [key], []);
  }
}

export type LoginAttempt =
  | { readonly allowed: true; succeeded(): Promise<void> }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Refused while any subject's count (this attempt included) is over its allowance. */
function gate(subjects: readonly [count: number, max: number, ttl: number][]): LoginGate {
  let retryAfterSeconds = 0;
  for (const [count, max, ttl] of subjects)
    if (count > max) retryAfterSeconds = Math.max(retryAfterSeconds, ttl > 0 ? ttl : WINDOW_SECONDS);
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}
