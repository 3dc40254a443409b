import type { DeliveryRequest } from './delivery-request';
import { clientCertificateFacts } from './hook-tls';
import { wireLayout, type DeliverableEvent, type WireLayout } from './event-kinds';
import type { DeliveryRecord } from './outcomes';
import { formatTraceparent, type TraceContext } from './trace-context';

/** The request an attempt sent, as the history keeps it: credentials masked, the body's exact text. */
export interface RecordedRequest {
  readonly method: 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The subject of the client certificate presented (mutual TLS), when the hook has one. */
  readonly client_certificate?: string;
}

/** One attempt as the history stores it: the log line, whose hook it was, and what was sent. */
export interface AttemptRecord extends DeliveryRecord {
  readonly account_id: string;
  readonly hook_id: string;
  /** Absent when nothing was sent by this attempt (`unknown`, `expired`, `discarded`, `blocked`). */
  readonly request?: RecordedRequest;
  /**
   * The endpoint's response headers (lower-case names, in the order received), bounded as
   * response-headers.ts says; absent when no response came or the record was made before they were kept.
   */
  readonly response_headers?: Readonly<Record<string, string>>;
  /** Response headers past the bounds, counted but not kept. */
  readonly response_headers_dropped?: number;
  /** The event's fields as delivered (what a send-again sends again); kept in the history, never shown. */
  readonly event_fields?: Readonly<Record<string, string>>;
  /** A catalogue kind's wire layout as the event carried it (built-in kinds need none). */
  readonly event_layout?: WireLayout;
  /** The W3C trace the attempt belongs to (32 hex digits), when the publish was traced or carried a context. */
  readonly trace_id?: string;
  /** The attempt's own span (16 hex digits); without an exporter, the producer's span it came from. */
  readonly span_id?: string;
}

/** The list line of a record: everything but the request, which only an attempt's own page shows. */
export function toDeliveryRecord(record: AttemptRecord): DeliveryRecord & { readonly hook_id: string } {
  /* eslint-disable @typescript-eslint/no-unused-vars */
  const {
    request,
    account_id,
    event_fields,
    event_layout,
    trace_id,
    span_id,
    response_headers,
    response_headers_dropped,
    ...line
  } = record;
  /* eslint-enable @typescript-eslint/no-unused-vars */
  return line;
}

/** The attempt's place in its trace, as the parent of a send-again of it: the new attempt joins that trace. */
export function traceOfRecord(record: AttemptRecord): TraceContext | undefined {
  if (!record.trace_id || !record.span_id) return undefined;
  return { traceparent: formatTraceparent(record.trace_id, record.span_id, true) };
}

/** `call_id` when the kind has one, else its first field after `EventType`: the value customers search by. */
export function searchKeyOf(event: DeliverableEvent): string | undefined {
  const fields = event.fields;
  if (fields['call_id'] !== undefined) return fields['call_id'];
  for (const name of Object.keys(fields)) if (name !== 'EventType') return fields[name];
  return undefined;
}

/**
 * The request as history keeps it: the Authorization value is replaced by its masked form, so no credential
 * is ever stored in the database; every other header and the body are exactly what was sent. The headers are
 * the wire's, framing included, in its order: HTTP/1.1's client (undici, packages/delivery) writes `host` and
 * `connection` before the request's own headers and `content-length` after them, in lower case; the
 * deliverer's test holds this to what a real receiver gets.
 */
export function recordRequest(
  request: DeliveryRequest,
  maskedAuthorization: string | undefined,
): RecordedRequest {
  // Every connection the deliverer opens is kept alive (pipelining 1, never reset for a POST).
  const headers: Record<string, string> = { host: new URL(request.url).host, connection: 'keep-alive' };
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = name.toLowerCase() === 'authorization' ? (maskedAuthorization ?? '••••') : value;
  headers['content-length'] = String(Buffer.byteLength(request.body, 'utf8'));
  return {
    method: 'POST',
    url: request.url,
    headers,
    body: request.body,
    ...(request.tls ? { client_certificate: clientCertificateFacts(request.tls).subject } : {}),
  };
}

/**
 * Why an attempt cannot be sent again, or undefined when it can: its event was erased on request (product.md
 * §18: never sent afterwards, and the record no longer has it), or the record does not keep the event.
 */
export function resendRefusal(record: AttemptRecord): 'erased' | 'not_kept' | undefined {
  if (record.erased_at !== undefined) return 'erased';
  return resendableEvent(record) ? undefined : 'not_kept';
}

/**
 * The event an attempt was of, as it was delivered, for a send-again; undefined when the record does not keep
 * it (made by an older version, or emptied by an erasure) or its kind cannot be encoded (a catalogue kind
 * recorded without its layout).
 */
export function resendableEvent(record: AttemptRecord): DeliverableEvent | undefined {
  if (!record.event_fields) return undefined;
  const event: DeliverableEvent = {
    id: record.event_id,
    type: record.event_type,
    fields: record.event_fields,
    ...(record.event_layout ? { layout: record.event_layout } : {}),
  };
  return wireLayout(event) ? event : undefined;
}
