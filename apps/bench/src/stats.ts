export interface LatencySummary {
  readonly count: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

/** Nearest-rank percentiles of latencies given in microseconds, reported in milliseconds. */
export function summarizeLatencies(micros: Float64Array): LatencySummary | undefined {
  if (micros.length === 0) return undefined;
  const sorted = Float64Array.from(micros).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  const ms = (v: number) => Math.round(v / 10) / 100;
  return {
    count: sorted.length,
    p50Ms: ms(at(0.5)),
    p90Ms: ms(at(0.9)),
    p99Ms: ms(at(0.99)),
    maxMs: ms(sorted[sorted.length - 1]!),
    meanMs: ms(sum / sorted.length),
  };
}

/** `value / reference`, rounded for a table; undefined when either side is missing. */
export function ratio(value: number | undefined, reference: number | undefined): number | undefined {
  if (value === undefined || reference === undefined || reference === 0) return undefined;
  return Math.round((value / reference) * 1000) / 1000;
}

/** The rate of two steps done one after the other, each at its own rate: 1 / (1/a + 1/b). */
export function inSeries(a: number, b: number): number {
  return a > 0 && b > 0 ? 1 / (1 / a + 1 / b) : 0;
}
