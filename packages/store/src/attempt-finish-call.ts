import type { AttemptRecord } from '@hookline/core';
import {
  hookQueueLayout,
  OUTBOX_IDLE_TTL_MS,
  PAUSED_FIELD,
  STREAK_FAILURES_KEPT,
  STREAK_IDLE_TTL_MS,
  type PreparedFinish,
  type RedisKeys,
} from '@hookline/redis';
import type { AttemptFence, StreakStep, SuspensionRule } from './contracts';
import { ERASURE_FENCE_TTL_MS } from './erasures';

// The KEYS and ARGV of one call of attempt-finish.lua, laid out here and nowhere else: the script's header says
// what each one is, in this order. Optional parts shift what follows them, and the script finds them from the
// flags among the ARGV.

/** What the outcome's script does besides recording: complete the job, and what may come with that. */
export interface Completing {
  readonly completion: PreparedFinish;
  readonly markNext: boolean;
  readonly cachedVersion: string;
  /** The time to mark the hook for the history writer with, in the script (one Redis only). */
  readonly markHistoryAt?: number;
  /** The holder whose lease the script gives back if the queue ran empty (one Redis only). */
  readonly releaseFor?: string;
  /** An `erased` outcome's entry for the erasure that counts it: its event id and erasure tags. */
  readonly fenceEntry?: string;
  /** A failure's suspension rule: the script pauses the queue when the failure brings the streak to it. */
  readonly suspendBy?: SuspensionRule;
  /** The due set is beside the hook's keys (one Redis): a suspension the script makes goes into it too. */
  readonly dueSetReachable?: boolean;
}

export interface FinishCall {
  readonly hookId: string;
  readonly record: AttemptRecord;
  readonly fence: AttemptFence;
  readonly streakStep: StreakStep | undefined;
  /** What the attempt key holds for this attempt (the job id). */
  readonly marker: string;
  /** The job's data without the event's fields, written over it with the outcome. */
  readonly emptiedJobData: string | undefined;
  readonly completing?: Completing;
}

export function attemptFinishCall(
  keys: RedisKeys,
  call: FinishCall,
  now = Date.now(),
): { keys: string[]; args: (string | number | Buffer)[] } {
  const { hookId, record, fence, completing } = call;
  const layout = hookQueueLayout(keys, hookId);
  const rule = completing?.suspendBy;
  const dueHook = rule && completing.dueSetReachable ? hookId : undefined;
  return {
    keys: [
      keys.hookHistoryOutbox(hookId),
      keys.hookAttempt(hookId),
      keys.hookRecord(hookId),
      keys.hookStreak(hookId),
      keys.hookStreakFailures(hookId),
      layout.jobLock(fence.jobId),
      ...(call.emptiedJobData !== undefined ? [layout.jobPrefix + fence.jobId] : []),
      ...(completing
        ? [
            keys.hookErasing(hookId),
            keys.hookErasedByFence(hookId),
            ...(completing.markHistoryAt !== undefined ? [keys.historyDirty()] : []),
            ...(completing.releaseFor !== undefined ? keys.leaseKeys() : []),
            ...(dueHook !== undefined ? [keys.suspensionDue()] : []),
            ...completing.completion.keys,
          ]
        : []),
    ],
    args: [
      JSON.stringify(record),
      OUTBOX_IDLE_TTL_MS,
      call.marker,
      call.streakStep ?? '',
      Date.parse(record.attempted_at),
      STREAK_IDLE_TTL_MS,
      fence.token,
      ...(call.emptiedJobData !== undefined ? [call.emptiedJobData] : []),
      ...(completing
        ? [
            completing.markNext ? layout.jobPrefix : '',
            layout.jobLockSuffix,
            completing.cachedVersion,
            completing.markHistoryAt ?? '',
            completing.markHistoryAt !== undefined ? hookId : '',
            completing.fenceEntry ?? '',
            ERASURE_FENCE_TTL_MS,
            completing.releaseFor ?? '',
            completing.releaseFor !== undefined ? now : '',
            completing.releaseFor !== undefined ? hookId : '',
            rule?.threshold ?? '',
            rule?.windowMs ?? '',
            STREAK_FAILURES_KEPT,
            now,
            record.event_id,
            record.account_id,
            PAUSED_FIELD,
            dueHook ?? '',
            ...completing.completion.args,
          ]
        : []),
    ],
  };
}
