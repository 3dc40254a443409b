// W3C Trace Context (https://www.w3.org/TR/trace-context/) as hookline carries it: a producer's `traceparent`
// and `tracestate` travel with the event (inbox entry, job data) so every attempt joins the producer's trace.
// Checked here, once, by the rules of the specification; a value that breaks them is dropped, never refused:
// tracing must not cost a producer an event.

import { randomBytes } from 'node:crypto';

/** The trace an event belongs to, as the W3C headers spell it; `traceparent` always in its version-00 form. */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

export interface ParsedTraceparent {
  /** 32 lower-case hex digits, never all zero. */
  readonly traceId: string;
  /** The span the context came from: 16 lower-case hex digits, never all zero. */
  readonly parentId: string;
  readonly sampled: boolean;
}

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// A later version must start the same way; what follows its flags (after a dash) is for that version only.
const LATER_VERSION = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

export function parseTraceparent(value: string): ParsedTraceparent | undefined {
  let traceId: string, parentId: string, flags: string;
  const v00 = VERSION_00.exec(value);
  if (v00) [, traceId, parentId, flags] = v00 as unknown as [string, string, string, string];
  else {
    const later = LATER_VERSION.exec(value);
    // Version ff is forbidden; version 00 must be exactly 55 characters (it did not match above).
    if (!later || later[1] === 'ff' || later[1] === '00') return undefined;
    [, , traceId, parentId, flags] = later as unknown as [string, string, string, string, string];
  }
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return undefined;
  return { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

/**
 * The root of a new trace, sampled, for an attempt that has no trace of its own (no exporter, no producer's
 * context) but must send one on (HOOKLINE_TRACE_PROPAGATE): the endpoint's trace and the history then share its
 * id. Random ids are all zero with a chance of 2^-64, which the loop still rules out.
 */
export function newTraceContext(): TraceContext {
  for (;;) {
    const bytes = randomBytes(24);
    const traceId = bytes.toString('hex', 0, 16);
    const spanId = bytes.toString('hex', 16, 24);
    if (traceId !== ZERO_TRACE && spanId !== ZERO_SPAN)
      return { traceparent: formatTraceparent(traceId, spanId, true) };
  }
}

const SIMPLE_KEY = /^[a-z][a-z0-9_\-*/]{0,255}$/;
const TENANT_KEY = /^[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13}$/;
// Printable ASCII but ',' and '=', at most 256 characters, not ending in a space.
const MEMBER_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const MAX_MEMBERS = 32;
/** Longer lists may be dropped (the specification asks every vendor to pass on at least 512 characters). */
export const MAX_TRACESTATE = 512;

/** The list members, normalised (no blanks), or undefined when the list breaks the rules. */
export function parseTracestate(value: string): string | undefined {
  if (value.length > MAX_TRACESTATE) return undefined;
  const members: string[] = [];
  const keys = new Set<string>();
  for (const raw of value.split(',')) {
    const member = raw.trim();
    if (member === '') continue;
    const eq = member.indexOf('=');
    if (eq <= 0) return undefined;
    const key = member.slice(0, eq);
    const memberValue = member.slice(eq + 1);
    if (!(SIMPLE_KEY.test(key) || TENANT_KEY.test(key)) || !MEMBER_VALUE.test(memberValue)) return undefined;
    if (keys.has(key)) return undefined;
    keys.add(key);
    members.push(member);
  }
  if (members.length === 0 || members.length > MAX_MEMBERS) return undefined;
  return members.join(',');
}

/**
 * The context from a producer's headers or options (each a string, or a header repeated as an array): a
 * `traceparent` that breaks the rules, or is given twice, means no context at all; a `tracestate` that breaks
 * them is dropped alone (the trace is still joined); a `tracestate` without a valid `traceparent` means nothing.
 */
export function traceContextFrom(traceparent: unknown, tracestate?: unknown): TraceContext | undefined {
  const parentText = Array.isArray(traceparent)
    ? traceparent.length === 1
      ? traceparent[0]
      : undefined
    : traceparent;
  if (typeof parentText !== 'string') return undefined;
  const parsed = parseTraceparent(parentText.trim());
  if (!parsed) return undefined;
  const normalised = formatTraceparent(parsed.traceId, parsed.parentId, parsed.sampled);
  // Repeated tracestate headers are one list, in order (RFC 9110 field combination).
  const stateText = Array.isArray(tracestate)
    ? tracestate.every((s) => typeof s === 'string')
      ? tracestate.join(',')
      : undefined
    : tracestate;
  const state = typeof stateText === 'string' ? parseTracestate(stateText) : undefined;
  return state !== undefined ? { traceparent: normalised, tracestate: state } : { traceparent: normalised };
}

// ---- The tracing interface the rest of hookline calls (packages/telemetry/src/tracing implements it). ----

/** Every span hookline makes. */
export type SpanName = 'hookline.publish' | 'hookline.fanout' | 'hookline.delivery' | 'hookline.resend';

export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

export interface TraceSpan {
  /** What the work this span causes carries (and, with propagation, what a receiver gets): this span. */
  readonly context: TraceContext;
  readonly traceId: string;
  readonly spanId: string;
  set(attributes: SpanAttributes): void;
  /** Ends the span; `failure` marks it as an error with that description. */
  end(failure?: string): void;
}

/**
 * Spans, when an exporter is configured. Absent otherwise, and then callers do nothing but carry the context
 * they were given: `tracing?.start(…)` does not even build its arguments.
 */
export interface Tracing {
  /** A span that is a child of `parent` when one is given, else the root of a new trace. */
  start(name: SpanName, parent: TraceContext | undefined, attributes: SpanAttributes): TraceSpan;
  /** Exports what is left; on stop. */
  shutdown(): Promise<void>;
}

/** Where an attempt stands in its trace, for the history: its own span, or (no tracing) the producer's. */
export function traceIdsOf(
  span: TraceSpan | undefined,
  parent: TraceContext | undefined,
): { readonly trace_id: string; readonly span_id: string } | undefined {
  if (span) return { trace_id: span.traceId, span_id: span.spanId };
  const parsed = parent && parseTraceparent(parent.traceparent);
  return parsed && { trace_id: parsed.traceId, span_id: parsed.parentId };
}

/**
 * Runs `run` inside a span when tracing is on (ended with the failure's message when `run` throws), else runs
 * it alone; `run` gets the context its work carries on: the span's, or without tracing the one given.
 * `attributes` is only called with tracing on, so nothing is built for spans nobody records.
 */
export function inSpan<T>(
  tracing: Tracing | undefined,
  name: SpanName,
  parent: TraceContext | undefined,
  attributes: () => SpanAttributes,
  run: (carried: TraceContext | undefined, span: TraceSpan | undefined) => Promise<T>,
): Promise<T> {
  // Not async itself: without tracing, the caller's own promise is returned as it is, nothing added.
  if (!tracing) return run(parent, undefined);
  return runInSpan(tracing.start(name, parent, attributes()), run);
}

async function runInSpan<T>(
  span: TraceSpan,
  run: (carried: TraceContext | undefined, span: TraceSpan | undefined) => Promise<T>,
): Promise<T> {
  try {
    const result = await run(span.context, span);
    span.end();
    return result;
  } catch (error) {
    span.end(error instanceof Error ? error.message : String(error));
    throw error;
  }
}
