import { createHistogram, performance } from 'node:perf_hooks';
import type { Gauge, Registry } from 'prom-client';

/**
 * The event-loop delay series prom-client registers (`min`, `max`, `mean`, `stddev`, `p50`, `p90`, `p99`), filled
 * from a sampler of our own instead of Node's `monitorEventLoopDelay`, for two reasons:
 * - That histogram's timer records the whole time since it last fired: the interval plus any lag. At the coarse
 *   intervals that keep an idle process cheap (100 ms, 1 s) its figures read the interval (an idle worker's p50
 *   ≈ 1 s). The sampler here records the lag alone: how late each tick came.
 * - prom-client resets that histogram at every scrape, and its first tick after a reset only starts a new
 *   interval: a stall within one interval after a scrape (the first second, in a worker) was never recorded.
 *   The sampler keeps its last tick across scrapes, so every interval counts.
 * `nodejs_eventloop_lag_seconds` (a setImmediate at the scrape) is prom-client's own, lag already.
 */
const FROM_SAMPLER = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const;

/** prom-client's own histogram then wakes the process once a minute: its figures are replaced by the sampler's. */
export const PROM_CLIENT_SAMPLE_MS = 60_000;

/**
 * Samples the event loop every `intervalMs` (an unref'd timer: it keeps no process alive) and makes the
 * registry's event-loop delay series, registered by `collectDefaultMetrics` under `prefix`, read the lag seen
 * since the previous scrape. A window with no tick (two scrapes within one interval) reads 0.
 */
export function exportEventLoopLag(registry: Registry, prefix: string, intervalMs: number): void {
  const scraped = registry.getSingleMetric(`${prefix}nodejs_eventloop_lag_seconds`) as
    (Gauge & { collect?: () => unknown }) | undefined;
  // A runtime without perf_hooks' histogram (prom-client then registers none of these) exports no lag.
  if (!scraped?.collect) return;
  const lags = createHistogram();
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    // In nanoseconds, at least 1: a recordable histogram takes nothing smaller.
    lags.record(Math.max(1, Math.round((now - last - intervalMs) * 1e6)));
    last = now;
    setTimeout(tick, intervalMs).unref();
  };
  setTimeout(tick, intervalMs).unref();

  const series = FROM_SAMPLER.map((s) => ({
    s,
    gauge: registry.getSingleMetric(`${prefix}nodejs_eventloop_lag_${s}_seconds`) as Gauge | undefined,
  }));
  const read = (s: (typeof FROM_SAMPLER)[number]): number => {
    if (lags.count === 0) return 0;
    switch (s) {
      case 'min':
        return lags.min;
      case 'max':
        return lags.max;
      case 'mean':
        return lags.mean;
      case 'stddev':
        return lags.stddev;
      default:
        return lags.percentile(Number(s.slice(1)));
    }
  };
  // prom-client sets every series from this one gauge's `collect`, which runs first in a scrape: ours runs
  // after it and sets them again from the sampler.
  const collect = scraped.collect.bind(scraped);
  scraped.collect = () => {
    const done = collect();
    for (const { s, gauge } of series) gauge?.set(read(s) / 1e9);
    lags.reset();
    return done;
  };
}
