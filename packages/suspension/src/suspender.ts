import type { Redis } from 'ioredis';
import type { HookQueues, RedisKeys } from '@hookline/redis';
import { type LogSink, type Clock } from '@hookline/core';
import { outcomeFromFields, type StreamEntry } from '@hookline/queue';
import { recentFailures, recordSuspension, recordWarning, type SuspensionStore } from './recording';
import { streakReason } from './suspension-reason';
import { streakStep } from './rules';
import type { StreakInput, Streaks, StreakVerdict } from './streaks';

export interface SuspenderDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: SuspensionStore;
  readonly streaks: Streaks;
  readonly log: LogSink;
  readonly clock: Clock;
  /** How long a suspension this monitor is recording is left to it before another monitor may take over. */
  readonly leaseMs: number;
  /** The hold cap applied at each suspension it records (HOOKLINE_HOLD_MAX). */
  readonly hookQueues: Pick<HookQueues, 'dropOldestHeld'>;
  readonly holdMax: number;
}

type Suspend = Extract<StreakVerdict, { kind: 'suspend' }>;

// How many due streaks one tick re-checks; the rest wait for the next tick.
const DUE_BATCH = 100;

/**
 * Turns outcomes into streak steps and streaks into suspensions. The streak script decides (once, across every
 * monitor); this records what it decided.
 */
export class Suspender {
  constructor(private readonly deps: SuspenderDeps) {}

  /** Applies a batch of outcome entries; returns the ids that are done and may be acknowledged. */
  async handle(entries: readonly StreamEntry[]): Promise<string[]> {
    const done: string[] = [];
    const steps: { entryId: string; input: StreakInput }[] = [];
    for (const entry of entries) {
      const outcome = entry.fields ? outcomeFromFields(entry.fields) : undefined;
      const step = outcome && streakStep(outcome.outcome);
      if (!outcome || !step || !outcome.hookId) {
        done.push(entry.id);
        continue;
      }
      const { hookId, accountId, eventId, at } = outcome;
      steps.push({ entryId: entry.id, input: { hookId, accountId, step, eventId, at } });
    }
    const now = this.deps.clock().getTime();
    const verdicts = await this.deps.streaks.applyMany(
      steps.map((s) => s.input),
      now,
    );
    const due: (string | number)[] = [];
    for (const [i, { entryId, input }] of steps.entries()) {
      const verdict = verdicts[i]!;
      // A warning that could not be recorded is handed back with its entry: the step runs again and warns again.
      if (verdict.kind !== 'gone' && verdict.warn && !(await this.tryWarn(input.hookId, verdict))) continue;
      if (verdict.kind === 'due') due.push(verdict.dueAt, input.hookId);
      // An entry whose suspension could not be recorded stays pending: it is claimed and tried again.
      if (verdict.kind === 'suspend' && !(await this.tryRecord(input.hookId, verdict))) continue;
      done.push(entryId);
    }
    if (due.length > 0) await this.deps.redis.zadd(this.deps.keys.suspensionDue(), ...due);
    return done;
  }

  /**
   * Streaks long enough to suspend but too young at their last outcome: the time condition may hold now, with
   * no further outcome to say so (a hook that fails and then gets no events).
   */
  async checkDue(): Promise<void> {
    const { redis, keys, streaks, clock } = this.deps;
    const now = clock().getTime();
    const hookIds = await redis.zrangebyscore(keys.suspensionDue(), '-inf', now, 'LIMIT', 0, DUE_BATCH);
    for (const hookId of hookIds) {
      const verdict = await streaks.check(hookId, now);
      if (verdict.kind === 'due') await redis.zadd(keys.suspensionDue(), verdict.dueAt, hookId);
      else if (verdict.kind === 'suspend') await this.tryRecord(hookId, verdict);
      else await redis.zrem(keys.suspensionDue(), hookId);
    }
  }

  private async tryWarn(hookId: string, verdict: Exclude<StreakVerdict, { kind: 'gone' }>): Promise<boolean> {
    const { redis, keys, store, clock } = this.deps;
    try {
      const at = clock();
      const startedAt = verdict.streakStartedAt ?? at.getTime();
      const failures = await recentFailures(store.deliveryLog, hookId, startedAt);
      // The streak as it stood when it reached half the threshold, not as it stands now (workers count too):
      // its first `count` failures, when the recent ones reach back to its start.
      const count = verdict.warnedAt ?? verdict.count;
      const fromStart = failures[0] !== undefined && Date.parse(failures[0].attempted_at) === startedAt;
      const then = fromStart ? failures.slice(0, count) : failures;
      const reason = streakReason(count, startedAt, at.getTime(), then.at(-1));
      await recordWarning(this.deps, {
        hookId,
        accountId: verdict.accountId,
        at,
        reason,
        failures: then,
        count,
      });
      return true;
    } catch (error) {
      this.deps.log.warn({ hookId, err: error }, 'failing hook not recorded yet; will retry');
      await redis.hdel(keys.hookStreak(hookId), 'warned').catch(() => undefined);
      return false;
    }
  }

  private async tryRecord(hookId: string, verdict: Suspend): Promise<boolean> {
    try {
      await this.record(hookId, verdict);
      return true;
    } catch (error) {
      this.deps.log.warn({ hookId, err: error }, 'suspension not recorded yet; will retry');
      return false;
    }
  }

  private async record(hookId: string, verdict: Suspend): Promise<void> {
    const { redis, keys, store, streaks, clock, leaseMs } = this.deps;
    const at = clock();
    // If this process dies before the end, the due check finds the hook again once the lease has run out.
    await redis.zadd(keys.suspensionDue(), at.getTime() + leaseMs, hookId);
    const failures = await recentFailures(store.deliveryLog, hookId, verdict.startedAt);
    const reason = streakReason(verdict.count, verdict.startedAt, at.getTime(), failures.at(-1));
    await recordSuspension(this.deps, {
      hookId,
      accountId: verdict.accountId,
      at,
      reason,
      actor: 'monitor',
      failures,
    });
    await streaks.markRecorded(hookId);
    await redis.zrem(keys.suspensionDue(), hookId);
  }
}
