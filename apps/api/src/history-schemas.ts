import { z } from 'zod';
import { isDropped, OUTCOMES, type RecordedOutcome } from '@hookline/core';
import { decodeCursor, type Cursor, type HistoryFilter, type PageRequest } from '@hookline/history';
import { filterTextQuery, filterTimeQuery, pageQuery, wholeNumberQuery } from './query-fields';
import { deliveryRecord, pageOf } from './schemas';

// The history API's query and answer shapes (product.md §10): filters, cursor pagination, one attempt in
// full, a hook's health.

export const historyQuery = z
  .strictObject({
    ...pageQuery('records', decodeCursor),
    outcome: z
      .enum(OUTCOMES as [RecordedOutcome, ...RecordedOutcome[]], {
        error: `must be one of ${OUTCOMES.join(', ')}`,
      })
      .optional(),
    call_id: filterTextQuery('call_id').optional().describe("Only the attempts of this call's events"),
    event_id: filterTextQuery('event_id').optional(),
    since: filterTimeQuery.optional().describe('Attempted at or after this time'),
    until: filterTimeQuery.optional().describe('Attempted before this time'),
  })
  .refine((q) => !(q.since && q.until && q.since >= q.until), {
    path: ['until'],
    message: 'must be later than since',
  });

export type HistoryQuery = z.output<typeof historyQuery>;

export function toFilter(q: HistoryQuery): { filter: HistoryFilter; page: PageRequest } {
  return {
    filter: {
      ...(q.outcome ? { outcome: q.outcome } : {}),
      ...(q.call_id !== undefined ? { callId: q.call_id } : {}),
      ...(q.event_id !== undefined ? { eventId: q.event_id } : {}),
      ...(q.since ? { since: q.since } : {}),
      ...(q.until ? { until: q.until } : {}),
    },
    page: { limit: q.limit, ...(q.cursor ? { cursor: q.cursor as Cursor } : {}) },
  };
}

export const deliveryPage = pageOf(deliveryRecord).meta({ id: 'DeliveryPage' });

export const attemptDetail = deliveryRecord
  .extend({
    request: z
      .object({
        method: z.literal('POST'),
        url: z.string(),
        headers: z
          .record(z.string(), z.string())
          .describe(
            'As sent, in order; the Authorization value is masked (scheme and last 4 characters at most)',
          ),
        body: z.string().describe('The body exactly as sent'),
        client_certificate: z
          .string()
          .optional()
          .describe(
            "The subject of the client certificate the request was sent with (the hook's `tls`), if any",
          ),
      })
      .optional()
      .describe('Absent when this attempt sent nothing (unknown, blocked, expired, discarded)'),
    trace_id: z
      .string()
      .optional()
      .describe(
        "The W3C trace of the attempt (32 hex digits): the producer's when it sent a traceparent, else one " +
          'hookline started; absent when the event was not traced',
      ),
    span_id: z
      .string()
      .optional()
      .describe("The attempt's span in that trace (without an exporter: the producer's span)"),
    response: z
      .object({
        status_code: z.number().int().optional(),
        headers: z
          .record(z.string(), z.string())
          .optional()
          .describe(
            'As received, in order, names lower-case, repeated headers joined with ", ": the first 30 and 4 KiB ' +
              'at most, a value over 256 characters cut (it says so), Set-Cookie values masked (the cookie ' +
              'names stay); absent on records made before headers were kept',
          ),
        headers_dropped: z
          .number()
          .int()
          .optional()
          .describe('How many headers came after those kept, past the bounds (neither name nor value kept)'),
        body_excerpt: z.string().optional().describe('The first 4 KiB of the response body'),
      })
      .optional(),
  })
  .meta({ id: 'Attempt' });

export const healthQuery = z.strictObject({
  hours: wholeNumberQuery(1, 720, 24).describe(
    'The window, in whole hours up to now (the current hour included)',
  ),
});

/** A count per outcome, every one of `outcomes` present (0 included). */
const outcomeCounts = (outcomes: readonly RecordedOutcome[]) =>
  z.strictObject(Object.fromEntries(outcomes.map((o) => [o, z.number().int()])));

export const hookHealthView = z
  .object({
    hours: z.number().int(),
    attempts: z
      .number()
      .int()
      .describe(
        'Attempts made to deliver an event (outcomes delivered, failed, timed_out, error, blocked, unknown): ' +
          'the sum of those six in by_outcome. Events dropped without an attempt are not attempts (see dropped)',
      ),
    delivered: z.number().int(),
    success_rate: z.number().nullable().describe('delivered / attempts; null with no attempts'),
    p50_ms: z
      .number()
      .nullable()
      .describe(
        'Median time the endpoint took to answer, in ms: over attempts it answered (any status) and those ' +
          'that timed out waiting for an answer (at their duration, about the delivery deadline); not ' +
          'attempts that failed before an answer could come (error, blocked) nor unknown ones. Null with none',
      ),
    p99_ms: z.number().nullable().describe('The 99th percentile of the same times as p50_ms'),
    by_outcome: outcomeCounts(OUTCOMES).describe(
      'Every outcome recorded in the window, by outcome: the six of attempts (their sum is attempts) and the ' +
        'dropped ones (expired, discarded, erased), which dropped counts again',
    ),
    dropped: outcomeCounts(OUTCOMES.filter(isDropped)).describe(
      'Events dropped without an attempt, by outcome: held events expired (the hold cap) or discarded (a ' +
        're-enable), events erased unsent. Not counted in attempts, success_rate or series',
    ),
    last_error: z
      .object({
        attempt_id: z.string(),
        attempted_at: z.string(),
        outcome: z.string(),
        status_code: z.number().int().optional(),
        error: z.string().optional(),
      })
      .optional()
      .describe('The newest attempt in the window that was not delivered'),
    series: z
      .array(z.object({ hour: z.string(), delivered: z.number().int(), not_delivered: z.number().int() }))
      .describe('Attempts per hour of the window, oldest first, empty hours included'),
  })
  .meta({ id: 'HookHealth' });
