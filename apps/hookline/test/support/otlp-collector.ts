import { startReceiver, waitUntil, type Receiver } from '@hookline/testing';

// A stand-in for an OpenTelemetry collector: a real HTTP server that takes what the OTLP/HTTP exporter sends
// (OTEL_EXPORTER_OTLP_PROTOCOL=http/json: ExportTraceServiceRequest as JSON, ids in hex) and decodes it.

export interface ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  /** The status's description ('' when none). */
  readonly statusMessage: string;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

function plain(attributes: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? [])
    out[key] =
      value.stringValue ??
      value.boolValue ??
      value.doubleValue ??
      (value.intValue !== undefined ? Number(value.intValue) : '');
  return out;
}

export interface OtlpCollector {
  readonly receiver: Receiver;
  /** OTEL_* variables that send a process's spans here, promptly. */
  readonly env: Record<string, string>;
  /** Every span received so far, in the order the batches came. */
  spans(): ExportedSpan[];
  /** The first span received that `match` accepts, waiting for it. */
  waitForSpan(
    what: string,
    match: (span: ExportedSpan) => boolean,
    timeoutMs?: number,
  ): Promise<ExportedSpan>;
}

export async function startOtlpCollector(closeLater: <T extends { close(): unknown }>(c: T) => T) {
  const receiver = closeLater(await startReceiver());
  const collector: OtlpCollector = {
    receiver,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
    spans() {
      const out: ExportedSpan[] = [];
      for (const request of receiver.requests) {
        if (request.path !== '/v1/traces') throw new Error(`the exporter posted to ${request.path}`);
        const body = JSON.parse(request.body.toString('utf8')) as OtlpRequest;
        for (const rs of body.resourceSpans ?? []) {
          const resource = plain(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              out.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind,
                attributes: plain(s.attributes),
                statusCode: s.status?.code ?? 0,
                statusMessage: s.status?.message ?? '',
                resource,
              });
        }
      }
      return out;
    },
    waitForSpan(what, match, timeoutMs = 20000) {
      return waitUntil(() => collector.spans().find(match), what, timeoutMs);
    },
  };
  return collector;
}
