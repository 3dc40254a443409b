import {
  buildAttemptRecord,
  systemClock,
  traceContextFrom,
  traceIdsOf,
  type AttemptRecord,
  type Clock,
} from '@hookline/core';
import { parseDeliverJob, type DeliverJobData } from '@hookline/queue';
import type { HistoryOutbox, HookQueues } from '@hookline/redis';

// Takes the oldest held events off a paused hook's queue (one script, so that two callers, two producers over
// the cap at once or a discard racing the cap, never drop or record the same event twice) and records each.

// Bounds one script run (and so how long Redis is busy with it); callers loop.
const BATCH = 500;

export interface HoldDeps {
  readonly hookQueues: Pick<HookQueues, 'dropOldestHeld'>;
  /** Where dropped events are recorded: the hook's history outbox, like the attempts' records. */
  readonly outbox: Pick<HistoryOutbox, 'append'>;
  readonly clock?: Clock;
}

export type DropOutcome = 'expired' | 'discarded';

/**
 * Drops held events of a paused hook beyond the newest `keep`, oldest first, and records each in the hook's
 * history with `outcome`. Does nothing when the hook is not paused. Returns how many were dropped.
 * Nothing goes to the outcome stream: a dropped event was never attempted and must not extend a streak.
 */
export async function dropHeldEvents(
  deps: HoldDeps,
  hookId: string,
  keep: number,
  outcome: DropOutcome,
  why: string,
  /** Only events accepted before this time (ms) are dropped. */
  acceptedBefore?: number,
): Promise<number> {
  const clock = deps.clock ?? systemClock;
  let total = 0;
  for (;;) {
    const dropped = await deps.hookQueues.dropOldestHeld(hookId, keep, BATCH, acceptedBefore);
    const at = clock();
    const records = dropped.map(([jobId, json]) => dropRecord(hookId, jobId, json, outcome, at, why));
    // In order, so the log reads oldest to newest like the deliveries it stands in for.
    await deps.outbox.append(hookId, records);
    total += records.length;
    if (records.length < BATCH) return total;
  }
}

function dropRecord(
  hookId: string,
  jobId: string,
  json: string,
  outcome: DropOutcome,
  at: Date,
  why: string,
): AttemptRecord {
  let data: Partial<DeliverJobData> = {};
  try {
    data = parseDeliverJob(JSON.parse(json));
  } catch {
    // A job without readable data is still recorded, under its job id (which is the event id).
  }
  return buildAttemptRecord(
    {
      accountId: data.accountId ?? '',
      hookId,
      eventId: jobId,
      ...(data.event ? { event: data.event } : {}),
      ...(data.trigger ? { trigger: data.trigger } : {}),
      ...(data.attemptId ? { attemptId: data.attemptId } : {}),
    },
    // In the trace of its publish, like the attempt it stands in for.
    {
      outcome,
      at,
      error: why,
      trace: traceIdsOf(undefined, traceContextFrom(data.traceparent, data.tracestate)),
    },
  );
}

/**
 * HOOKLINE_HOLD_MAX on a paused hook: drops its oldest held events beyond `holdMax` and records them `expired`.
 * Applied after an event is added to a paused queue (the producer), when a hook is suspended (events queued
 * before it become held at once) and on a re-enable that delivers. Returns how many were dropped.
 */
export function expireOverCap(deps: HoldDeps, hookId: string, holdMax: number): Promise<number> {
  return dropHeldEvents(
    deps,
    hookId,
    holdMax,
    'expired',
    `dropped while the hook was suspended: more than ${holdMax} events held`,
  );
}

/** The hold cap for the producer's `onHeld`, bound to its queues and outbox. */
export function createHoldCap(deps: HoldDeps): (hookId: string, holdMax: number) => Promise<number> {
  return (hookId, holdMax) => expireOverCap(deps, hookId, holdMax);
}
