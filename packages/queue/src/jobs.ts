import type { DeliverableEvent } from '@hookline/core';

// The job catalogue: one job kind today. The version in the name lets a later shape coexist with queued
// jobs of this one during a rolling deploy.
export const DELIVER_JOB = 'deliver.v1';

export interface DeliverJobData {
  readonly accountId: string;
  readonly hookId: string;
  readonly event: DeliverableEvent;
  /** When the service accepted the event (ms since epoch): publish->receipt latency starts here. */
  readonly acceptedAt: number;
}

// BullMQ keeps a few finished jobs for Bull Board; the delivery log is the record customers read.
export const KEEP_COMPLETED = { count: 20 } as const;
export const KEEP_FAILED = { count: 100 } as const;

/**
 * Length of each hook queue's BullMQ event stream (`streams.events.maxLen`, kept as `opts.maxLenEvents` in
 * the queue's meta). Nothing in hookline reads these streams (no QueueEvents; Bull Board does not use them),
 * and BullMQ's default of 10,000 entries per queue, times 100,000 hooks, is gigabytes of Redis memory.
 * Every Queue handle writes this value into its queue's meta when it opens, so every handle hookline makes
 * must pass it, or it would set the queue back to 10,000. BullMQ trims approximately (MAXLEN ~), so a
 * stream may briefly hold a few hundred entries.
 */
export const EVENTS_MAX_LEN = 100;

/**
 * How long a hook's queue remembers that it was given an event (BullMQ's deduplication key), after the job
 * itself is gone: repeating an interrupted fan-out within this time never delivers an event twice. Recovery
 * re-fans an interrupted entry after seconds (INBOX_GRACE_MS, then the monitor's next tick), so an hour is a
 * wide margin; it is also what the key costs, one key per event per hook, so it is kept far below a day.
 */
export const DEDUPE_TTL_MS = 3600 * 1000;
