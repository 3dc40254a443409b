import type { Redis } from 'ioredis';
import { isDropped, type DeliveryRecord, type LogSink } from '@hookline/core';
import type { DeliveryLog } from '@hookline/history';
import type { HistoryOutbox, HookQueues, RedisKeys } from '@hookline/redis';
import type { ActivityFeed, Hooks } from '@hookline/store';
import { expireOverCap } from './hold-cap';
import { announce, noticeFailures } from './notices';

// Recording a suspension is the same whoever suspended: the monitor (a failure streak) or an admin (Bull
// Board's pause). The paused flag is set first and by exactly one caller; only that caller records.

export interface SuspensionStore {
  readonly hooks: Hooks;
  /** Reads a hook's newest records (the failures behind a suspension). */
  readonly deliveryLog: Pick<DeliveryLog, 'list'>;
  /** The hooks' history outboxes: where dropped held events and probes are recorded (Redis, then PostgreSQL). */
  readonly historyOutbox: Pick<HistoryOutbox, 'append'>;
  readonly activity: ActivityFeed;
}

export interface SuspensionDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: SuspensionStore;
  readonly log?: LogSink;
  /** The hold cap at the suspension: the held events' queue. */
  readonly hookQueues: Pick<HookQueues, 'dropOldestHeld'>;
  /** HOOKLINE_HOLD_MAX. */
  readonly holdMax: number;
}

export interface Suspension {
  readonly hookId: string;
  readonly accountId: string;
  readonly at: Date;
  readonly reason: string;
  /** `monitor` or `admin:<user>`. */
  readonly actor: string;
  readonly failures: readonly DeliveryRecord[];
}

/**
 * Caps the held events at HOOKLINE_HOLD_MAX, then writes why a hook was suspended everywhere it is read: the
 * hook, the account's feed, the index, the log.
 */
export async function recordSuspension(deps: SuspensionDeps, s: Suspension): Promise<void> {
  const at = s.at.toISOString();
  // Events queued before the pause are held from now on: past the cap, the oldest go now, not only when the next
  // event is published (a re-enable before then would deliver them all). First, so that a suspension recorded
  // is a capped one; a retry of an unrecorded suspension caps again, which finds nothing left to drop.
  await expireOverCap(
    { hookQueues: deps.hookQueues, outbox: deps.store.historyOutbox, clock: () => s.at },
    s.hookId,
    deps.holdMax,
  );
  await deps.store.hooks.recordSuspension(s.hookId, {
    at,
    reason: s.reason,
    failures: s.failures,
    by: s.actor,
  });
  await deps.redis.sadd(deps.keys.suspendedHooks(), s.hookId);
  await deps.store.activity.append(s.accountId, {
    kind: 'hook.suspended',
    at,
    hook_id: s.hookId,
    actor: s.actor,
    detail: s.reason,
  });
  await announce(deps.redis, deps.keys, {
    kind: 'hook.suspended',
    accountId: s.accountId,
    hookId: s.hookId,
    at,
    reason: s.reason,
    actor: s.actor,
    failures: noticeFailures(s.failures),
  });
  deps.log?.warn(
    { hookId: s.hookId, accountId: s.accountId, actor: s.actor, reason: s.reason, at },
    'hook suspended',
  );
}

export interface Warning {
  readonly hookId: string;
  readonly accountId: string;
  readonly at: Date;
  /** "5 consecutive failures over 3 minutes; the last: the endpoint answered 503". */
  readonly reason: string;
  readonly failures: readonly DeliveryRecord[];
  readonly count: number;
}

/** Writes that a hook is failing (half the suspension threshold): the account's feed and the log. */
export async function recordWarning(deps: SuspensionDeps, w: Warning): Promise<void> {
  await deps.store.activity.append(w.accountId, {
    kind: 'hook.failing',
    at: w.at.toISOString(),
    hook_id: w.hookId,
    actor: 'monitor',
    detail: `${w.reason}; it will be suspended if this goes on`,
  });
  await announce(deps.redis, deps.keys, {
    kind: 'hook.failing',
    accountId: w.accountId,
    hookId: w.hookId,
    at: w.at.toISOString(),
    reason: w.reason,
    actor: 'monitor',
    count: w.count,
    failures: noticeFailures(w.failures),
  });
  deps.log?.warn({ hookId: w.hookId, accountId: w.accountId, reason: w.reason }, 'hook failing');
}

/**
 * The failures that caused a suspension, oldest first (the banner's order): the newest run of non-delivered
 * records in the hook's history attempted since the streak started (`sinceMs`: failures from before the last
 * re-enable belong to an earlier suspension), at most `limit`. Dropped events (expired, discarded) are skipped.
 */
export async function recentFailures(
  deliveryLog: Pick<DeliveryLog, 'list'>,
  hookId: string,
  sinceMs: number,
  limit = 10,
): Promise<DeliveryRecord[]> {
  const newestFirst = await deliveryLog.list(hookId, limit * 3);
  const failures: DeliveryRecord[] = [];
  for (const record of newestFirst) {
    if (record.outcome === 'delivered' || Date.parse(record.attempted_at) < sinceMs) break;
    if (isDropped(record.outcome)) continue;
    failures.push(record);
    if (failures.length === limit) break;
  }
  return failures.reverse();
}
