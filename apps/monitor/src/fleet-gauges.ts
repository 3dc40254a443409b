import type { Redis } from 'ioredis';
import type { Clock } from '@hookline/core';
import { ALIVE_WITHIN_MS, figuresFromHash, type ReadySet, type WorkerRoster } from '@hookline/scheduler';
import type { RedisKeys } from '@hookline/redis';
import type { FleetMetrics, refreshedOnScrape } from '@hookline/telemetry';

export interface FleetGaugeDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly ready: Pick<ReadySet, 'size' | 'leasedCount'>;
  readonly roster: Pick<WorkerRoster, 'read'>;
  readonly metrics: FleetMetrics;
  readonly clock: Clock;
}

/**
 * Sets the monitor's fleet gauges from what is in Redis: the watchdog's figures (whichever monitor wrote them),
 * the ready set and leases (ZCARD / ZCOUNT), the stuck-report index and the worker roster (one member per
 * worker process). A handful of O(1) or O(workers) reads per refresh, whatever the number of hooks.
 */
export async function refreshFleetGauges(deps: FleetGaugeDeps): Promise<void> {
  const { redis, keys, metrics } = deps;
  const [hash, ready, leased, stuck, workers] = await Promise.all([
    redis.hgetall(keys.fleetFigures()),
    deps.ready.size(),
    deps.ready.leasedCount(),
    redis.zcard(keys.stuckHooks()),
    deps.roster.read(),
  ]);
  const now = deps.clock().getTime();
  const seconds = (since: number) => Math.max(0, (now - since) / 1000);
  const figures = figuresFromHash(hash);
  metrics.hookOldestEventAge.reset();
  if (figures) {
    metrics.eventsWaiting.set(figures.waiting);
    metrics.sweepAge.set(seconds(figures.at));
    metrics.oldestEventAge.set(figures.oldest[0] ? seconds(figures.oldest[0].since) : 0);
    for (const wait of figures.oldest)
      metrics.hookOldestEventAge.set({ hook: wait.hookId }, seconds(wait.since));
  }
  metrics.hooksReady.set(ready);
  metrics.hooksLeased.set(leased);
  metrics.hooksStuck.set(stuck);
  metrics.workerHeartbeatAge.reset();
  for (const worker of workers) metrics.workerHeartbeatAge.set({ worker: worker.name }, seconds(worker.at));
  metrics.workersAlive.set(workers.filter((w) => now - w.at < ALIVE_WITHIN_MS).length);
}

/** The gauges refreshFleetGauges sets: what a scrape of them waits to see refreshed. */
export function gaugesOfFleetRefresh(metrics: FleetMetrics): Parameters<typeof refreshedOnScrape>[0] {
  return [
    metrics.eventsWaiting,
    metrics.oldestEventAge,
    metrics.hookOldestEventAge,
    metrics.sweepAge,
    metrics.hooksReady,
    metrics.hooksLeased,
    metrics.hooksStuck,
    metrics.workerHeartbeatAge,
    metrics.workersAlive,
  ];
}
