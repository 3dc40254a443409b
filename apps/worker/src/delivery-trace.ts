import {
  deliverySpanStatus,
  newId,
  newTraceContext,
  traceContextFrom,
  traceIdsOf,
  type RecordedOutcome,
  type TraceContext,
  type TraceSpan,
  type Tracing,
} from '@hookline/core';
import type { DeliverJobData } from '@hookline/queue';

/** One attempt's place in its trace: its span (with an exporter), what the history keeps, what is sent on. */
export interface DeliveryTrace {
  readonly attemptId: string;
  readonly span?: TraceSpan;
  /** For the history record: the attempt's span, or (no exporter) the producer's, or the new trace sent on. */
  readonly ids?: { readonly trace_id: string; readonly span_id: string };
  /**
   * What `traceparent` says when propagation is on: the attempt's span, or the producer's as given, or (neither)
   * the root of a new trace.
   */
  readonly outbound?: TraceContext;
}

/**
 * Starts the `hookline.delivery` span of one attempt, a child of the publish (or send-again) that queued the
 * job, or the root of a new trace when it carried no context. Without tracing, nothing is started: the
 * producer's own context is what the history keeps and what propagation sends on; with `propagate` and no
 * context at all, a new trace's root is sent on and kept, so an endpoint's trace can still be matched with
 * the attempt.
 */
export function startDeliveryTrace(
  tracing: Tracing | undefined,
  data: DeliverJobData,
  startedAt: number,
  propagate = false,
): DeliveryTrace {
  // The same id the recorder gives the record: the span names it too.
  const attemptId = data.attemptId ?? newId('att', startedAt);
  const parent =
    data.traceparent !== undefined ? traceContextFrom(data.traceparent, data.tracestate) : undefined;
  const span = tracing?.start('hookline.delivery', parent, {
    'hookline.account_id': data.accountId,
    'hookline.hook_id': data.hookId,
    'hookline.event_id': data.event.id,
    'hookline.event_kind': data.event.type,
    'hookline.attempt_id': attemptId,
    'hookline.trigger': data.trigger ?? 'auto',
  });
  const outbound = span?.context ?? parent ?? (propagate ? newTraceContext() : undefined);
  const ids = traceIdsOf(span, outbound);
  return { attemptId, ...(span ? { span } : {}), ...(ids ? { ids } : {}), ...(outbound ? { outbound } : {}) };
}

/** Ends the attempt's span with what the history records: its outcome and status, an error unless delivered. */
export function endDeliveryTrace(
  trace: DeliveryTrace,
  outcome: RecordedOutcome,
  statusCode: number | undefined,
  error: string | undefined,
): void {
  const { span } = trace;
  if (!span) return;
  span.set({ 'hookline.outcome': outcome, 'http.response.status_code': statusCode });
  span.end(deliverySpanStatus(outcome, statusCode, error));
}
