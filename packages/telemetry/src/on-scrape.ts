import { singleFlight } from '@hookline/core';
import type { Metric } from 'prom-client';

/** A scrape waits this long at most for fresh values; past it, it gets the last ones. */
export const SCRAPE_REFRESH_BOUND_MS = 3_000;

/**
 * Gauges read from Redis or the database when they are scraped, not on a timer: an idle monitor then looks
 * at nothing between scrapes (Prometheus asks every 15–60 s; a timer asked every second), and a scrape gets
 * values read for it. Every gauge given shares one `refresh`: the gauges of one scrape (prom-client collects
 * them together) wait for one run of it. A refresh that fails is reported and the scrape gets the last values;
 * one slower than SCRAPE_REFRESH_BOUND_MS is not waited for (it still sets its values when it ends).
 */
export function refreshedOnScrape(
  gauges: readonly Metric[],
  refresh: () => Promise<unknown>,
  onError: (error: unknown) => void,
): void {
  const refreshes = singleFlight(refresh, onError);
  const collect = () => {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, SCRAPE_REFRESH_BOUND_MS)));
    return Promise.race([refreshes.run(), bound]).finally(() => clearTimeout(timer));
  };
  // prom-client runs a metric's `collect` before each read of its values (MetricConfiguration.collect); the
  // gauges are made before their refresh exists (fleetMetrics is shared by the monitor's parts), so it is set here.
  for (const gauge of gauges) (gauge as unknown as { collect?: () => Promise<void> }).collect = collect;
}
