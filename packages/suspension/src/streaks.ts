import type { Redis } from 'ioredis';
import { warnAt } from '@hookline/core';
import {
  HookQueues,
  NEVER_SUSPEND_FIELD,
  PAUSED_FIELD,
  STREAK_FAILURES_KEPT,
  STREAK_IDLE_TTL_MS,
  type RedisKeys,
} from '@hookline/redis';
import { SUSPENSION_SCRIPTS } from './scripts';
import type { StreakStep } from './rules';

// A hook's streak of non-delivered outcomes and the suspension it leads to are decided in one script
// (scripts/streak-step.lua in packages/redis), so that a suspension happens once whatever order outcomes
// arrive in and however many monitors read them.

/** What one step of a streak leads to. `suspend`: this caller paused the queue and must record why. */
export type StreakVerdict =
  | { readonly kind: 'gone' }
  | ({ readonly kind: 'counting'; readonly count: number; readonly accountId: string } & Warning)
  | ({
      readonly kind: 'due';
      readonly count: number;
      readonly accountId: string;
      readonly dueAt: number;
    } & Warning)
  | ({
      readonly kind: 'suspend';
      readonly count: number;
      readonly accountId: string;
      readonly startedAt: number;
    } & Warning);

/**
 * `warn`: this step brought the streak to half the threshold, and this caller (one across every monitor) must
 * record the warning; `streakStartedAt` is when its first failure was attempted.
 */
export interface Warning {
  readonly warn?: boolean;
  readonly streakStartedAt?: number;
  /** How long the streak was at the failure that warns (the count may have grown since: workers count too). */
  readonly warnedAt?: number;
}

export interface StreakRules {
  /** HOOKLINE_SUSPEND_AFTER_FAILURES */
  readonly threshold: number;
  /** HOOKLINE_SUSPEND_AFTER_MS */
  readonly windowMs: number;
  /** How long a suspension being recorded is left to its monitor before another may record it. */
  readonly leaseMs?: number;
  /** Warn at half the threshold (default true). */
  readonly warn?: boolean;
}

export interface StreakInput {
  readonly hookId: string;
  readonly accountId: string;
  readonly step: StreakStep;
  readonly eventId: string;
  /** When the attempt started (ms). */
  readonly at: number;
}

/** Moves streaks under the suspension rules (HOOKLINE_SUSPEND_AFTER_FAILURES and _MS). */
export class Streaks {
  private readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly rules: StreakRules,
    private readonly hookQueues: Pick<HookQueues, 'streakScriptKeys'> = new HookQueues(redis, keys),
  ) {
    this.leaseMs = rules.leaseMs ?? 30_000;
  }

  /**
   * Applies outcomes, one verdict per input. The calls are sent together rather than in a pipeline (on a Redis
   * Cluster the hooks live on different shards); each shard runs them in the order given, so one hook's
   * outcomes keep their order.
   */
  async applyMany(inputs: readonly StreakInput[], now: number): Promise<StreakVerdict[]> {
    const replies = await Promise.all(
      inputs.map((i) => this.step(i.hookId, i.step, i.at, i.eventId, i.accountId, now)),
    );
    return replies.map(toVerdict);
  }

  /** Re-evaluates a streak without an outcome: the time condition may have been met since the last one. */
  async check(hookId: string, now: number): Promise<StreakVerdict> {
    return toVerdict(await this.step(hookId, 'check', 0, '', '', now));
  }

  /** The suspension this monitor was told to record is recorded. */
  async markRecorded(hookId: string): Promise<void> {
    await this.redis.hdel(this.keys.hookStreak(hookId), 'unrecorded', 'lease_until');
  }

  private step(
    hookId: string,
    mode: StreakStep | 'check',
    at: number,
    eventId: string,
    account: string,
    now: number,
  ): Promise<unknown> {
    const { keys, rules } = this;
    return SUSPENSION_SCRIPTS.streakStep.run(
      this.redis,
      [
        keys.hookStreak(hookId),
        keys.hookStreakFailures(hookId),
        ...this.hookQueues.streakScriptKeys(hookId),
        keys.hookRecord(hookId),
      ],
      [
        mode,
        at,
        eventId,
        account,
        now,
        rules.threshold,
        rules.windowMs,
        this.leaseMs,
        STREAK_FAILURES_KEPT,
        STREAK_IDLE_TTL_MS,
        rules.warn === false ? 0 : warnAt(rules.threshold),
        PAUSED_FIELD,
        NEVER_SUSPEND_FIELD,
      ],
    );
  }
}

/**
 * Starts a hook's streak afresh at `now` (re-enable): failures attempted before it, still in the stream or in
 * flight at the suspension, no longer count. Needs no rules: it only forgets.
 */
export async function resetStreak(redis: Redis, keys: RedisKeys, hookId: string, now: number): Promise<void> {
  await redis
    .multi()
    .del(keys.hookStreak(hookId), keys.hookStreakFailures(hookId))
    .hset(keys.hookStreak(hookId), 'reset_at', now, 'count', 0)
    .pexpire(keys.hookStreak(hookId), STREAK_IDLE_TTL_MS)
    .exec();
  // A global index, so not in the hook's transaction (another shard). Left behind, it is harmless: the due
  // check finds a streak that no longer qualifies and drops the entry.
  await redis.zrem(keys.suspensionDue(), hookId);
}

/** A hook's streak as it stands, for tests and the admin page. */
export async function readStreak(
  redis: Redis,
  keys: RedisKeys,
  hookId: string,
): Promise<{ count: number; startedAt?: number }> {
  const [count, first] = await Promise.all([
    redis.hget(keys.hookStreak(hookId), 'count'),
    redis.zrange(keys.hookStreakFailures(hookId), 0, 0, 'WITHSCORES'),
  ]);
  return { count: Number(count ?? 0), ...(first[1] !== undefined ? { startedAt: Number(first[1]) } : {}) };
}

function toVerdict(reply: unknown): StreakVerdict {
  const [kind, count, accountId, time, warn, startedAt, reached] = reply as [
    string,
    number,
    string,
    number,
    number?,
    number?,
    number?,
  ];
  const warning: Warning =
    warn === 1 ? { warn: true, streakStartedAt: Number(startedAt), warnedAt: Number(reached ?? count) } : {};
  switch (kind) {
    case 'gone':
      return { kind: 'gone' };
    case 'due':
      return { kind: 'due', count, accountId, dueAt: time, ...warning };
    case 'suspend':
      return { kind: 'suspend', count, accountId, startedAt: time, ...warning };
    default:
      return { kind: 'counting', count, accountId, ...warning };
  }
}
