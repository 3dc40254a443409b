import {
  newTraceContext,
  parseTraceparent,
  parseTracestate,
  traceContextFrom,
  traceIdsOf,
} from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const VALID = `00-${TRACE}-${SPAN}-01`;

describe('W3C traceparent', () => {
  it('reads the trace id, the parent span and the sampled flag', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
    // Flags other than sampled are kept out of the answer, not refused.
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-09`)?.sampled).toBe(true);
  });

  it('accepts a later version by its version-00 prefix, and ignores what follows', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-what-comes-next`)?.traceId).toBe(TRACE);
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01`)?.parentId).toBe(SPAN);
  });

  it.each([
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with more after the flags', `${VALID}-extra`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['a missing flags field', `00-${TRACE}-${SPAN}`],
    ['a later version whose tail does not start with a dash', `01-${TRACE}-${SPAN}-01x`],
    ['garbage', 'hello'],
  ])('refuses %s', (_why, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

describe('W3C tracestate', () => {
  it('keeps a valid list, without blanks and empty members', () => {
    expect(parseTracestate('rojo=00f067aa0ba902b7, congo=t61rcWkgMzE,,')).toBe(
      'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
    );
    expect(parseTracestate('tenant@vendor=x')).toBe('tenant@vendor=x');
  });

  it.each([
    ['a duplicate key', 'a=1,a=2'],
    ['an upper-case key', 'Rojo=1'],
    ['a member without =', 'rojo'],
    ['a value with an = sign', 'a=b=c'],
    ['a value with a control character', 'a=b\tc'],
    ['more than 32 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
    ['more than 512 characters', `a=${'x'.repeat(255)},b=${'x'.repeat(255)}`],
    ['nothing but blanks', ' , '],
  ])('drops %s', (_why, value) => {
    expect(parseTracestate(value)).toBeUndefined();
  });
});

describe('traceContextFrom (headers or producer options)', () => {
  it('normalises a later version to version 00 and keeps a valid tracestate', () => {
    expect(traceContextFrom(`01-${TRACE}-${SPAN}-01-x`, 'a=1')).toEqual({
      traceparent: VALID,
      tracestate: 'a=1',
    });
  });

  it('ignores a malformed or repeated traceparent, and a tracestate without one', () => {
    expect(traceContextFrom('00-bad', 'a=1')).toBeUndefined();
    expect(traceContextFrom([VALID, VALID])).toBeUndefined();
    expect(traceContextFrom(undefined, 'a=1')).toBeUndefined();
    expect(traceContextFrom(42)).toBeUndefined();
  });

  it('joins the trace without a tracestate that breaks the rules, and combines repeated ones', () => {
    expect(traceContextFrom(VALID, 'A=1')).toEqual({ traceparent: VALID });
    expect(traceContextFrom([VALID], ['a=1', 'b=2'])).toEqual({ traceparent: VALID, tracestate: 'a=1,b=2' });
  });

  it("gives the producer's ids for the history when hookline makes no span", () => {
    expect(traceIdsOf(undefined, { traceparent: VALID })).toEqual({ trace_id: TRACE, span_id: SPAN });
    expect(traceIdsOf(undefined, undefined)).toBeUndefined();
  });

  it('starts new traces that follow the rules, sampled, each its own', () => {
    const made = Array.from({ length: 50 }, () => newTraceContext());
    for (const context of made) {
      expect(context.tracestate).toBeUndefined();
      expect(parseTraceparent(context.traceparent)).toMatchObject({ sampled: true });
      expect(traceContextFrom(context.traceparent)).toEqual(context);
    }
    expect(new Set(made.map((c) => c.traceparent.slice(3, 35))).size).toBe(50);
  });
});
