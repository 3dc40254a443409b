import type { AttemptRecord, RecordedRequest } from './attempt-record';
import { searchKeyOf } from './attempt-record';
import type { DeliverableEvent } from './event-kinds';
import { newId } from './ids';
import type { AttemptTrigger, RecordedOutcome } from './outcomes';
import type { ResponseHeaders } from './response-headers';

/** Whose attempt a record is: the hook, its account, the event (when readable) and how it was asked for. */
export interface AttemptSubject {
  readonly accountId: string;
  readonly hookId: string;
  /** Absent for a job whose data could not be read: the record then names `eventId` and kind `unknown`. */
  readonly event?: DeliverableEvent;
  readonly eventId?: string;
  readonly trigger?: AttemptTrigger;
  /**
   * The attempt id already given out for this attempt (a send-again answers it before the attempt is made);
   * a new one otherwise.
   */
  readonly attemptId?: string;
}

/** What became of the attempt. */
export interface AttemptHappening {
  readonly outcome: RecordedOutcome;
  /** When the attempt started (or the event was dropped). */
  readonly at: Date;
  readonly durationMs?: number;
  readonly statusCode?: number;
  readonly error?: string;
  readonly responseExcerpt?: string;
  readonly responseHeaders?: ResponseHeaders;
  /** What was sent, credentials masked; absent when nothing was (`unknown`, `blocked`, a dropped event). */
  readonly request?: RecordedRequest;
  /** Where the attempt stands in its W3C trace, when it was traced. */
  readonly trace?: { readonly trace_id: string; readonly span_id: string } | undefined;
}

/**
 * The one way a history record is made, by the worker (attempts), the probe and the hold cap (dropped
 * events): every record carries the same fields in the same order, and a send-again's attempt id is kept
 * whoever records it.
 */
export function buildAttemptRecord(subject: AttemptSubject, happened: AttemptHappening): AttemptRecord {
  const { event } = subject;
  const callId = event && searchKeyOf(event);
  return {
    // First: the outbox's readers and writer find a record by it.
    attempt_id: subject.attemptId ?? newId('att', happened.at.getTime()),
    event_id: event?.id ?? subject.eventId ?? '',
    event_type: event?.type ?? 'unknown',
    ...(callId !== undefined ? { call_id: callId } : {}),
    trigger: subject.trigger ?? 'auto',
    outcome: happened.outcome,
    duration_ms: happened.durationMs ?? 0,
    attempted_at: happened.at.toISOString(),
    ...(happened.statusCode !== undefined ? { status_code: happened.statusCode } : {}),
    ...(happened.error !== undefined ? { error: happened.error } : {}),
    ...(happened.responseExcerpt ? { response_excerpt: happened.responseExcerpt } : {}),
    account_id: subject.accountId,
    hook_id: subject.hookId,
    ...(happened.request ? { request: happened.request } : {}),
    ...(happened.responseHeaders ? { response_headers: happened.responseHeaders.kept } : {}),
    ...(happened.responseHeaders?.dropped
      ? { response_headers_dropped: happened.responseHeaders.dropped }
      : {}),
    ...(event ? { event_fields: event.fields } : {}),
    ...(event?.layout ? { event_layout: event.layout } : {}),
    ...(happened.trace ?? {}),
  };
}
