import type { ResponseHeaders } from './response-headers';

// The result of one delivery attempt, as a value. Only `delivered` counts as success; every other outcome
// extends a hook's failure streak (see the suspension monitor).
export type AttemptOutcome = 'delivered' | 'failed' | 'timed_out' | 'error' | 'blocked';
// Outcomes recorded without an attempt of our own finishing: a crash that may have sent (`unknown`),
// and held events dropped by the cap (`expired`) or by the customer (`discarded`), or removed unsent by an
// erasure of personal data (`erased`).
export type RecordedOutcome = AttemptOutcome | 'unknown' | 'expired' | 'discarded' | 'erased';
export const OUTCOMES: readonly RecordedOutcome[] = [
  'delivered',
  'failed',
  'timed_out',
  'error',
  'blocked',
  'unknown',
  'expired',
  'discarded',
  'erased',
];

/** Outcomes of events dropped unsent: they are not failures of the endpoint and never count in a streak. */
export type DroppedOutcome = 'expired' | 'discarded' | 'erased';
export function isDropped(outcome: RecordedOutcome): outcome is DroppedOutcome {
  return outcome === 'expired' || outcome === 'discarded' || outcome === 'erased';
}

export interface AttemptResult {
  readonly outcome: AttemptOutcome;
  readonly statusCode?: number;
  readonly durationMs: number;
  readonly error?: string;
  /** The first bytes of the response body (4 KiB at most), as UTF-8 text. */
  readonly responseExcerpt?: string;
  /** The response's headers, bounded (response-headers.ts); absent when no response came. */
  readonly responseHeaders?: ResponseHeaders;
}

/**
 * An attempt that never reached the endpoint: the egress proxy refused the tunnel or could not be reached, so
 * not one byte of the request was written. Not an outcome and never recorded: the event waits at the head of
 * its hook's queue and goes later, as its first attempt.
 */
export interface NotSent {
  readonly outcome: 'not_sent';
  /** `refused`: the proxy answered CONNECT with another status than 200; `unreachable`: it did not answer. */
  readonly cause: 'refused' | 'unreachable';
  /** Why, in words, naming the proxy without its credentials. */
  readonly error: string;
  readonly durationMs: number;
  // Absent, as on an attempt that got no response: callers read the two shapes alike.
  readonly statusCode?: undefined;
  readonly responseExcerpt?: undefined;
  readonly responseHeaders?: undefined;
}

/** What the deliverer answers: an attempt's result, or nothing sent at all. */
export type SendResult = AttemptResult | NotSent;

/** What started an attempt: the event's own turn, a send-again, the hook's test button, a probe before re-enabling. */
export type AttemptTrigger = 'auto' | 'manual' | 'test' | 'probe';
export const TRIGGERS: readonly AttemptTrigger[] = ['auto', 'manual', 'test', 'probe'];

/** One line of a hook's delivery log, in the API's wire shape (the §6 fields, then §10's). */
export interface DeliveryRecord {
  readonly attempt_id: string;
  readonly event_id: string;
  readonly event_type: string;
  /** The event's `call_id`, or its first field for a kind without one: what customers search by. */
  readonly call_id?: string;
  readonly trigger: AttemptTrigger;
  readonly outcome: RecordedOutcome;
  readonly status_code?: number;
  readonly duration_ms: number;
  readonly attempted_at: string;
  readonly error?: string;
  readonly response_excerpt?: string;
  /** When an erasure of personal data emptied this record (ISO 8601): only ids, times and the outcome remain. */
  readonly erased_at?: string;
}

export function isSuccess(outcome: RecordedOutcome): boolean {
  return outcome === 'delivered';
}
