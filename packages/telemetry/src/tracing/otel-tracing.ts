// The one file that uses the OpenTelemetry SDK. Loaded only by startTracing, and only when an exporter is
// configured: everything else in hookline calls the small Tracing interface of @hookline/core.
import { randomUUID } from 'node:crypto';
import {
  createTraceState,
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import {
  formatTraceparent,
  parseTraceparent,
  type SpanAttributes,
  type SpanName,
  type TraceContext,
  type TraceSpan,
  type Tracing,
} from '@hookline/core';
import type { ProcessRole, SamplerChoice, TracingChoice, TracingLog } from './tracing-env';

/**
 * How long the spans still batched get to leave when the process stops: a collector that does not answer must
 * not hold a stop past its bound (runProcess exits 1 then), nor an orchestrator's grace.
 */
export const SHUTDOWN_MS = 3000;

// A publish hands work to a queue (producer), a delivery is an HTTP request out (client).
const KINDS: Record<SpanName, SpanKind> = {
  'hookline.publish': SpanKind.PRODUCER,
  'hookline.resend': SpanKind.PRODUCER,
  'hookline.fanout': SpanKind.INTERNAL,
  'hookline.delivery': SpanKind.CLIENT,
};

export function createOtelTracing(choice: TracingChoice, role: ProcessRole, log?: TracingLog): Tracing {
  if (log) diag.setLogger(diagTo(log), DiagLogLevel.WARN);
  // Later resources win: the SDK's defaults, then hookline's, then OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES.
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        'service.name': `hookline-${role}`,
        'service.namespace': 'hookline',
        'service.instance.id': randomUUID(),
        'hookline.role': role,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  // The exporters read their endpoint, headers, timeout and TLS files from the OTEL_EXPORTER_OTLP_* variables.
  const exporter = choice.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(choice.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...choice.batch })],
  });
  const tracer = provider.getTracer('hookline');
  return {
    start(name, parent, attributes) {
      const span = tracer.startSpan(
        name,
        { kind: KINDS[name], attributes: defined(attributes) },
        parent ? remoteParent(parent) : ROOT_CONTEXT,
      );
      return new OtelSpan(span);
    },
    shutdown: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          log?.warn(`opentelemetry: spans not exported within ${SHUTDOWN_MS} ms of stopping were dropped`);
          resolve();
        }, SHUTDOWN_MS);
        provider
          .shutdown()
          .catch((error: unknown) => log?.warn(`opentelemetry: shutdown failed: ${String(error)}`))
          .finally(() => {
            clearTimeout(timer);
            resolve();
          });
      }),
  };
}

class OtelSpan implements TraceSpan {
  readonly context: TraceContext;
  readonly traceId: string;
  readonly spanId: string;

  constructor(private readonly span: Span) {
    const own = span.spanContext();
    this.traceId = own.traceId;
    this.spanId = own.spanId;
    const traceparent = formatTraceparent(
      own.traceId,
      own.spanId,
      (own.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
    );
    const tracestate = own.traceState?.serialize();
    this.context = tracestate ? { traceparent, tracestate } : { traceparent };
  }

  set(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  end(failure?: string): void {
    if (failure !== undefined) this.span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
    this.span.end();
  }
}

/** The producer's span as the parent of ours: the context was checked when it was accepted. */
function remoteParent(parent: TraceContext) {
  const parsed = parseTraceparent(parent.traceparent);
  if (!parsed) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parsed.traceId,
    spanId: parsed.parentId,
    traceFlags: parsed.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
    ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
  });
}

function samplerOf(choice: SamplerChoice): Sampler {
  switch (choice.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(choice.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(choice.ratio) });
  }
}

function defined(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) out[name] = value;
  return out;
}

function diagTo(log: TracingLog) {
  const say = (message: string, ...args: unknown[]) =>
    log.warn(`opentelemetry: ${[message, ...args.map(String)].join(' ')}`);
  return { error: say, warn: say, info: () => {}, debug: () => {}, verbose: () => {} };
}
