import type { Registry } from 'prom-client';

/**
 * The event-loop delay series prom-client fills from Node's `monitorEventLoopDelay`. That histogram's timer
 * fires every `resolution` ms and records the whole time since it last fired: the interval plus any lag. At
 * the coarse resolutions that keep an idle process cheap (100 ms, 1 s) the raw figures would read the interval
 * (an idle worker's p50 ≈ 1 s), so these are exported with the resolution taken off. `stddev` is left alone: a
 * shift changes no spread. `nodejs_eventloop_lag_seconds` (a setImmediate at the scrape) is lag already.
 */
const SHIFTED = ['min', 'max', 'mean', 'p50', 'p90', 'p99'].map((s) => `nodejs_eventloop_lag_${s}_seconds`);

/** Makes the registry's event-loop delay series (registered by `collectDefaultMetrics` under `prefix`, sampled
 * every `resolutionMs`) read lag: each value less the resolution, never below 0. */
export function exportLagNotInterval(registry: Registry, prefix: string, resolutionMs: number): void {
  for (const name of SHIFTED) {
    const metric = registry.getSingleMetric(prefix + name);
    // A runtime without perf_hooks' histogram (prom-client then registers none of these) has nothing to shift.
    if (!metric) continue;
    const read = metric.get.bind(metric);
    metric.get = async () => {
      const raw = await read();
      return {
        ...raw,
        values: raw.values.map((v) => ({ ...v, value: Math.max(0, v.value - resolutionMs / 1000) })),
      };
    };
  }
}
