import { z } from 'zod';
import {
  FIELD_TYPES,
  TRIGGERS,
  wireLayout,
  type AttemptTrigger,
  type DeliverableEvent,
} from '@hookline/core';

// The job catalogue: one job kind today. The version in the name lets a later shape coexist with queued
// jobs of this one during a rolling deploy.
export const DELIVER_JOB = 'deliver.v1';

export interface DeliverJobData {
  readonly accountId: string;
  readonly hookId: string;
  readonly event: DeliverableEvent;
  /** When the service accepted the event (ms since epoch): publish->receipt latency starts here. */
  readonly acceptedAt: number;
  /** What queued it, when not the event's own publish (`auto`): a test, a send-again, a probe. */
  readonly trigger?: AttemptTrigger;
  /** The attempt's id, made when it was asked for (a send-again answers with it); else made at the attempt. */
  readonly attemptId?: string;
  /** W3C trace context of the publish (or send-again) that queued it: the attempt's span joins that trace. */
  readonly traceparent?: string;
  readonly tracestate?: string;
}

const deliverJobSchema = z.object({
  accountId: z.string().min(1),
  hookId: z.string().min(1),
  event: z
    .object({
      id: z.string().min(1),
      type: z.string().min(1),
      fields: z.record(z.string(), z.string()),
      layout: z.array(z.tuple([z.string(), z.enum(FIELD_TYPES)])).optional(),
    })
    // Events of catalogue kinds carry their layout; only built-in kinds may come without one.
    .refine((event) => wireLayout(event) !== undefined, {
      message: 'is of a kind this version does not know and carries no layout',
    }),
  acceptedAt: z.number(),
  trigger: z.enum(TRIGGERS as [AttemptTrigger, ...AttemptTrigger[]]).optional(),
  attemptId: z
    .string()
    .regex(/^att_[0-9a-z]{8,40}$/)
    .optional(),
  // Checked again by the worker (traceContextFrom): a context that breaks the W3C rules is ignored, not fatal.
  traceparent: z.string().max(256).optional(),
  tracestate: z.string().max(1024).optional(),
});

/**
 * A job's data as a worker or the hold cap reads it back from Redis, checked rather than trusted: a job
 * written by another version, or by hand in Bull Board, fails here with the problem named instead of
 * somewhere inside a delivery.
 */
export function parseDeliverJob(data: unknown): DeliverJobData {
  const parsed = deliverJobSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`);
  throw new Error(`not a ${DELIVER_JOB} job: ${problems.join('; ')}`);
}

// BullMQ keeps a few finished jobs for Bull Board; the delivery log is the record customers read.
export const KEEP_COMPLETED = { count: 20 } as const;
export const KEEP_FAILED = { count: 100 } as const;

/**
 * How long a hook's queue remembers that it was given an event (BullMQ's deduplication key, ids only) while
 * the event's inbox entry is not done: repeating an interrupted fan-out within this time never delivers the
 * event twice. Recovery re-fans an interrupted entry after INBOX_GRACE_MS (10 s) — but only once a monitor
 * runs again, and monitors can all be down for minutes in a deploy or an outage. An hour keeps the promise
 * through such a gap; a minute would not. Once the entry is done, the key is cut to DEDUPE_AFTER_DONE_MS.
 */
export const DEDUPE_TTL_MS = 3600 * 1000;

/**
 * How old the read that handed a fan-out its inbox entry may be when the fan-out adds the event to a hook's
 * queue (by the Redis server's clocks): older, the add is refused and adds nothing, and the entry is fanned
 * out again later (fenced-add.lua). Far longer than a fan-out takes; a process that stalls longer (frozen,
 * a long GC pause, a slow network) answers 503 and the producer's retry queues the event.
 */
export const FANOUT_STALE_MS = 30_000;

/**
 * From this long after a moment on, no fan-out of an entry read before that moment adds anything: it is
 * refused from FANOUT_STALE_MS after its read, and 25 s more cover the skew between the clocks compared (the
 * account's Redis shard, where the read time is taken; the hook's, where the add is fenced and keys expire;
 * the hosts' timers that measure an erasure's wait).
 */
export const FANOUT_FENCED_AFTER_MS = FANOUT_STALE_MS + 25_000;

/**
 * What is left of each hook's deduplication key once its entry is done. Every fan-out that could still add
 * read the entry before it was done, so it is refused before the key expires. Redis then keeps nothing per
 * delivered event after a minute.
 */
export const DEDUPE_AFTER_DONE_MS = FANOUT_FENCED_AFTER_MS;
