import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Clock } from '@hookline/core';
import { ReadySet, Watchdog, WorkerRoster } from '@hookline/scheduler';
import { answersWithin, HistoryOutbox, type HookQueues, type RedisKeys } from '@hookline/redis';
import { announce, type SuspensionStore } from '@hookline/suspension';
import { fleetMetrics, type Logger, type Metrics } from '@hookline/telemetry';
import { refreshFleetGauges } from './fleet-gauges';
import { stuckReporting } from './stuck-reports';

export interface OperationsDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly hookQueues: HookQueues;
  readonly store: Pick<SuspensionStore, 'hooks' | 'activity'>;
  readonly metrics?: Pick<Metrics, 'registry'>;
  readonly log: Logger;
  readonly clock: Clock;
  /** This monitor's name, as the holder of the watchdog's lock. */
  readonly holder: string;
  readonly stuckAfterMs: number;
  readonly tickMs: number;
}

const PING_WITHIN_MS = 2_000;

/**
 * The monitor's operations duties, each second: is Redis there (its own timer, so that a tick stuck behind a
 * Redis outage cannot leave `hookline_redis_up` at 1), then the watchdog's next batch and the fleet gauges.
 */
export function startOperations(deps: OperationsDeps): { close(): Promise<void> } {
  const { redis, keys, log, clock } = deps;
  const fleet = deps.metrics && fleetMetrics(deps.metrics.registry);
  const ready = new ReadySet(redis, keys, clock);
  const roster = new WorkerRoster(redis, keys, clock);
  const watchdog = new Watchdog({
    redis,
    keys,
    ready,
    hookQueues: deps.hookQueues,
    outbox: new HistoryOutbox(redis, keys),
    holder: deps.holder,
    stuckAfterMs: deps.stuckAfterMs,
    tickMs: deps.tickMs,
    clock,
    ...stuckReporting({
      store: deps.store,
      metrics: fleet,
      log,
      clock,
      announce: (notice) => announce(redis, keys, notice),
    }),
  });

  const tick = async () => {
    // Nothing is queued behind a reconnect: the next tick after it runs instead.
    if (redis.status !== 'ready') return;
    await watchdog.tick();
    if (fleet) await refreshFleetGauges({ redis, keys, ready, roster, metrics: fleet, clock });
  };
  const ping = async () => fleet?.redisUp.set((await answersWithin(redis, PING_WITHIN_MS)).ok ? 1 : 0);

  const running = new Map<string, Promise<void>>();
  // A slow run is not stacked up behind: the next one starts when it is over.
  const every = (name: string, task: () => Promise<unknown>) =>
    setInterval(() => {
      if (running.has(name)) return;
      const run = task()
        .then(() => undefined)
        .catch((error: unknown) => log.error({ err: error }, `monitor ${name} failed`))
        .finally(() => running.delete(name));
      running.set(name, run);
    }, deps.tickMs);
  const timers = [every('watchdog', tick), every('health check', ping)];

  return {
    async close() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
      // Another monitor takes the watchdog over at once; bounded, since Redis may be the reason for stopping.
      await Promise.race([watchdog.release().catch(() => undefined), sleep(1000, undefined, { ref: false })]);
    },
  };
}
