import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';

export interface WorkerBeat {
  readonly name: string;
  /** When it last said it was alive (ms since the epoch, by its own clock, like lease expiries). */
  readonly at: number;
}

/** How long a silent worker stays on the roster: long enough to alert on, short enough to forget a crash. */
export const ROSTER_FORGET_MS = 10 * 60_000;

/** A worker whose last heartbeat is younger than this counts as alive (it beats every ~3.3 s). */
export const ALIVE_WITHIN_MS = 15_000;

/**
 * The worker processes of the fleet and their heartbeats, for the monitor's per-worker metrics, the
 * "workers missing" alert and the watchdog (a hook waiting in the ready set is stuck when no worker is alive). A worker beats as often as it renews its leases (one ZADD every few seconds,
 * whatever the hooks it serves) and leaves on SIGTERM, so a worker that stays on the roster without beating
 * died or froze without saying so.
 */
export class WorkerRoster {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock = systemClock,
  ) {}

  async beat(name: string): Promise<void> {
    await this.redis.zadd(this.keys.workers(), this.clock().getTime(), name);
  }

  async leave(name: string): Promise<void> {
    await this.redis.zrem(this.keys.workers(), name);
  }

  /** Whether any worker beat within ALIVE_WITHIN_MS: one ZCOUNT, whatever the number of hooks. */
  async anyAlive(): Promise<boolean> {
    const since = this.clock().getTime() - ALIVE_WITHIN_MS;
    return (await this.redis.zcount(this.keys.workers(), `(${since}`, '+inf')) > 0;
  }

  /**
   * Every worker on the roster, forgetting first those silent for longer than `forgetMs`. The roster holds
   * one member per worker process, so reading it whole is cheap.
   */
  async read(forgetMs = ROSTER_FORGET_MS): Promise<WorkerBeat[]> {
    const key = this.keys.workers();
    await this.redis.zremrangebyscore(key, '-inf', `(${this.clock().getTime() - forgetMs}`);
    const flat = await this.redis.zrange(key, 0, -1, 'WITHSCORES');
    const beats: WorkerBeat[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) beats.push({ name: flat[i]!, at: Number(flat[i + 1]) });
    return beats;
  }
}
