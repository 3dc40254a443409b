import { inSeries, ratio, summarizeLatencies } from './stats';

describe('latency summary', () => {
  it('uses nearest-rank percentiles in milliseconds', () => {
    const micros = Float64Array.from({ length: 100 }, (_, i) => (i + 1) * 1000);
    expect(summarizeLatencies(micros)).toEqual({
      count: 100,
      p50Ms: 50,
      p90Ms: 90,
      p99Ms: 99,
      maxMs: 100,
      meanMs: 50.5,
    });
  });

  it('has nothing to say about no samples', () => {
    expect(summarizeLatencies(new Float64Array())).toBeUndefined();
  });

  it('gives ratios only when both sides exist', () => {
    expect(ratio(1, 4)).toBe(0.25);
    expect(ratio(undefined, 4)).toBeUndefined();
    expect(ratio(1, 0)).toBeUndefined();
  });

  it('adds the time of steps done in series', () => {
    expect(inSeries(6000, 3000)).toBeCloseTo(2000, 6);
    expect(inSeries(6000, 0)).toBe(0);
  });
});
