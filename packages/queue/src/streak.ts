import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/core';
import { APPLY_DELIVERED_LUA, STREAK_IDLE_TTL_MS, streakStep, type StreakStep } from '@hookline/store';

// A hook's streak of non-delivered outcomes, kept so that it is right whatever order outcomes arrive in and
// however often one arrives: several monitors take entries from the stream in parallel, and an entry whose
// monitor died is delivered again. The failures are a set keyed by event id (a redelivered one counts once);
// a delivered outcome removes every failure attempted before it and records its time, so a failure older
// than the latest success is ignored wherever it turns up. Workers apply delivered outcomes themselves, when
// they record them (packages/store streak-steps.ts); the monitor still applies any it finds in the stream
// (written by workers of an earlier version during a rolling upgrade).
//
// The same script decides suspension, so that it happens once: when the streak qualifies it sets the queue's
// paused flag with HSETNX (BullMQ's own pause, minus its event) and only the call that set it is told to
// record the suspension. A monitor that dies before recording leaves `unrecorded` behind with a lease; once
// the lease ends, the next call on that hook is told to record it instead.
//
// KEYS: streak hash, failures zset, queue meta, queue marker.
// ARGV: mode (failure|delivered|check), attempt time, event id, account id, now, threshold, window ms,
//       lease ms, failures kept, idle ttl ms.
const STREAK = `
local streak, failures, meta, marker = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local mode, at, eventId, account = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
local now, threshold, windowMs = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local leaseMs, kept, ttlMs = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])

if redis.call('EXISTS', meta) == 0 then
  redis.call('DEL', streak, failures)
  return {'gone'}
end

if mode == 'delivered' then
${APPLY_DELIVERED_LUA}
elseif mode == 'failure' and at > tonumber(redis.call('HGET', streak, 'reset_at') or '-1') then
  if redis.call('ZADD', failures, 'NX', at, eventId) == 1 then
    redis.call('HINCRBY', streak, 'count', 1)
    -- Keep the first failure (the streak's start) and the latest ones; the count stays exact.
    local size = redis.call('ZCARD', failures)
    if size > kept then redis.call('ZREMRANGEBYRANK', failures, 1, size - kept) end
  end
end
if mode ~= 'check' then
  if account ~= '' then redis.call('HSET', streak, 'account', account) end
  redis.call('PEXPIRE', streak, ttlMs)
  redis.call('PEXPIRE', failures, ttlMs)
end
account = redis.call('HGET', streak, 'account') or ''

local count = tonumber(redis.call('HGET', streak, 'count') or '0')
local first = redis.call('ZRANGE', failures, 0, 0, 'WITHSCORES')
if count < threshold or #first == 0 then return {'counting', count, account} end
local startedAt = tonumber(first[2])
if now < startedAt + windowMs then return {'due', count, account, startedAt + windowMs} end

if redis.call('HSETNX', meta, 'paused', 1) == 1 then
  redis.call('DEL', marker)
  redis.call('HSET', streak, 'unrecorded', startedAt, 'lease_until', now + leaseMs)
  return {'suspend', count, account, startedAt}
end
local unrecorded = redis.call('HGET', streak, 'unrecorded')
if unrecorded and now >= tonumber(redis.call('HGET', streak, 'lease_until') or '0') then
  redis.call('HSET', streak, 'lease_until', now + leaseMs)
  return {'suspend', count, account, tonumber(unrecorded)}
end
return {'counting', count, account}
`;

/** What one step of a streak leads to. `suspend`: this caller paused the queue and must record why. */
export type StreakVerdict =
  | { readonly kind: 'gone' }
  | { readonly kind: 'counting'; readonly count: number; readonly accountId: string }
  | { readonly kind: 'due'; readonly count: number; readonly accountId: string; readonly dueAt: number }
  | {
      readonly kind: 'suspend';
      readonly count: number;
      readonly accountId: string;
      readonly startedAt: number;
    };

export { streakStep, type StreakStep };

export interface StreakRules {
  /** HOOKLINE_SUSPEND_AFTER_FAILURES */
  readonly threshold: number;
  /** HOOKLINE_SUSPEND_AFTER_MS */
  readonly windowMs: number;
  /** How long a suspension being recorded is left to its monitor before another may record it. */
  readonly leaseMs?: number;
}

export interface StreakInput {
  readonly hookId: string;
  readonly accountId: string;
  readonly step: StreakStep;
  readonly eventId: string;
  /** When the attempt started (ms). */
  readonly at: number;
}

const KEPT_FAILURES = 1000;
const COMMAND = 'hooklineStreak';

type Args = (string | number)[];
// The script as a command of the connection (ioredis sends EVALSHA and loads it when Redis lacks it).
interface StreakCommand<R> {
  [COMMAND](...args: Args): R;
}

export class Streaks {
  private readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly rules: StreakRules,
  ) {
    this.leaseMs = rules.leaseMs ?? 30_000;
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 4, lua: STREAK });
  }

  /**
   * Applies outcomes, one verdict per input. The calls are sent together rather than in a pipeline (on a Redis
   * Cluster the hooks live on different shards); each shard runs them in the order given, so one hook's
   * outcomes keep their order.
   */
  async applyMany(inputs: readonly StreakInput[], now: number): Promise<StreakVerdict[]> {
    const redis = this.redis as Redis & StreakCommand<Promise<unknown>>;
    const replies = await Promise.all(
      inputs.map((i) => redis[COMMAND](...this.args(i.hookId, i.step, i.at, i.eventId, i.accountId, now))),
    );
    return replies.map(toVerdict);
  }

  /** Re-evaluates a streak without an outcome: the time condition may have been met since the last one. */
  async check(hookId: string, now: number): Promise<StreakVerdict> {
    const redis = this.redis as Redis & StreakCommand<Promise<unknown>>;
    return toVerdict(await redis[COMMAND](...this.args(hookId, 'check', 0, '', '', now)));
  }

  /** The suspension this monitor was told to record is recorded. */
  async markRecorded(hookId: string): Promise<void> {
    await this.redis.hdel(this.keys.hookStreak(hookId), 'unrecorded', 'lease_until');
  }

  /**
   * Starts afresh at `now` (re-enable): failures attempted before it, still in the stream or in flight at
   * the suspension, no longer count.
   */
  async reset(hookId: string, now: number): Promise<void> {
    await this.redis
      .multi()
      .del(this.keys.hookStreak(hookId), this.keys.hookStreakFailures(hookId))
      .hset(this.keys.hookStreak(hookId), 'reset_at', now, 'count', 0)
      .pexpire(this.keys.hookStreak(hookId), STREAK_IDLE_TTL_MS)
      .exec();
    // A global index, so not in the hook's transaction (another shard). Left behind, it is harmless: the due
    // check finds a streak that no longer qualifies and drops the entry.
    await this.redis.zrem(this.keys.suspensionDue(), hookId);
  }

  /** The streak as it stands, for tests and the admin page. */
  async read(hookId: string): Promise<{ count: number; startedAt?: number }> {
    const [count, first] = await Promise.all([
      this.redis.hget(this.keys.hookStreak(hookId), 'count'),
      this.redis.zrange(this.keys.hookStreakFailures(hookId), 0, 0, 'WITHSCORES'),
    ]);
    return { count: Number(count ?? 0), ...(first[1] !== undefined ? { startedAt: Number(first[1]) } : {}) };
  }

  private args(
    hookId: string,
    mode: StreakStep | 'check',
    at: number,
    eventId: string,
    account: string,
    now: number,
  ): Args {
    const { keys, rules } = this;
    return [
      keys.hookStreak(hookId),
      keys.hookStreakFailures(hookId),
      keys.hookQueueMeta(hookId),
      keys.hookQueueKey(hookId, 'marker'),
      mode,
      at,
      eventId,
      account,
      now,
      rules.threshold,
      rules.windowMs,
      this.leaseMs,
      KEPT_FAILURES,
      STREAK_IDLE_TTL_MS,
    ];
  }
}

function toVerdict(reply: unknown): StreakVerdict {
  const [kind, count, accountId, time] = reply as [string, number, string, number];
  switch (kind) {
    case 'gone':
      return { kind: 'gone' };
    case 'due':
      return { kind: 'due', count, accountId, dueAt: time };
    case 'suspend':
      return { kind: 'suspend', count, accountId, startedAt: time };
    default:
      return { kind: 'counting', count, accountId };
  }
}
