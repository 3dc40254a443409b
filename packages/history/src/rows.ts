import type { AttemptRecord, AttemptTrigger, RecordedOutcome } from '@hookline/core';

/** An `attempts` row as queries return it. */
export interface AttemptRow {
  readonly attempt_id: string;
  readonly attempted_at: Date;
  readonly account_id: string;
  readonly hook_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly call_id: string | null;
  readonly trigger: string;
  readonly outcome: string;
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly error: string | null;
  readonly response_excerpt: string | null;
  readonly request_method: string | null;
  readonly request_url: string | null;
  readonly request_headers: [string, string][] | null;
  readonly request_body: string | null;
  readonly request_client_certificate: string | null;
  readonly event_fields: Record<string, string> | null;
  readonly event_layout: [string, string][] | null;
  readonly trace_id: string | null;
  readonly span_id: string | null;
  readonly erased_at: Date | null;
  readonly response_headers: [string, string][] | null;
  readonly response_headers_dropped: number | null;
}

/** The columns every read selects, in the table's order. */
export const COLUMNS =
  'attempt_id, attempted_at, account_id, hook_id, event_id, event_type, call_id, trigger, outcome, status_code, ' +
  'duration_ms, error, response_excerpt, request_method, request_url, request_headers, request_body, event_fields, ' +
  'event_layout, trace_id, span_id, erased_at, request_client_certificate, response_headers, response_headers_dropped';

export function fromRow(row: AttemptRow): AttemptRecord {
  return {
    attempt_id: row.attempt_id,
    event_id: row.event_id,
    event_type: row.event_type,
    ...(row.call_id !== null ? { call_id: row.call_id } : {}),
    trigger: row.trigger as AttemptTrigger,
    outcome: row.outcome as RecordedOutcome,
    ...(row.status_code !== null ? { status_code: row.status_code } : {}),
    duration_ms: row.duration_ms,
    attempted_at: row.attempted_at.toISOString(),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.response_excerpt !== null ? { response_excerpt: row.response_excerpt } : {}),
    account_id: row.account_id,
    hook_id: row.hook_id,
    ...(row.request_url !== null
      ? {
          request: {
            method: 'POST' as const,
            url: row.request_url,
            headers: Object.fromEntries(row.request_headers ?? []),
            body: row.request_body ?? '',
            ...(row.request_client_certificate !== null
              ? { client_certificate: row.request_client_certificate }
              : {}),
          },
        }
      : {}),
    ...(row.response_headers !== null ? { response_headers: Object.fromEntries(row.response_headers) } : {}),
    ...(row.response_headers_dropped ? { response_headers_dropped: row.response_headers_dropped } : {}),
    ...(row.event_fields !== null ? { event_fields: row.event_fields } : {}),
    ...(row.event_layout !== null ? { event_layout: row.event_layout as AttemptRecord['event_layout'] } : {}),
    ...(row.trace_id !== null ? { trace_id: row.trace_id } : {}),
    ...(row.span_id !== null ? { span_id: row.span_id } : {}),
    ...(row.erased_at ? { erased_at: row.erased_at.toISOString() } : {}),
  };
}

// PostgreSQL text cannot hold NUL, and its JSON parser refuses lone surrogates: a response excerpt is whatever
// the endpoint sent, so both are replaced (U+FFFD) rather than let one record fail a whole batch.
function storable(text: string | undefined): string | null {
  if (text === undefined) return null;
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed();
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\uFFFD') : wellFormed;
}

/** A record as one element of the JSON array the insert reads with json_to_recordset. */
export function toRowJson(r: AttemptRecord): Record<string, unknown> {
  return {
    attempt_id: r.attempt_id,
    attempted_at: r.attempted_at,
    account_id: r.account_id,
    hook_id: r.hook_id,
    event_id: r.event_id,
    event_type: r.event_type,
    call_id: storable(r.call_id),
    trigger: r.trigger,
    outcome: r.outcome,
    status_code: r.status_code ?? null,
    duration_ms: Math.max(0, Math.round(r.duration_ms)),
    error: storable(r.error),
    response_excerpt: storable(r.response_excerpt),
    request_method: r.request?.method ?? null,
    request_url: r.request?.url ?? null,
    // Pairs, not an object: jsonb reorders object keys, and the order headers were sent in is kept.
    request_headers: r.request ? Object.entries(r.request.headers).map(([n, v]) => [n, storable(v)]) : null,
    request_body: r.request ? storable(r.request.body) : null,
    request_client_certificate: r.request?.client_certificate ?? null,
    event_fields: r.event_fields
      ? Object.fromEntries(Object.entries(r.event_fields).map(([k, v]) => [k, storable(v)]))
      : null,
    event_layout: r.event_layout ?? null,
    trace_id: r.trace_id ?? null,
    span_id: r.span_id ?? null,
    erased_at: r.erased_at ?? null,
    response_headers: r.response_headers
      ? Object.entries(r.response_headers).map(([n, v]) => [n, storable(v)])
      : null,
    response_headers_dropped: r.response_headers_dropped ?? null,
  };
}
