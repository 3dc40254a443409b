import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { runOnBeat, type Clock } from '@hookline/core';
import { ReadySet, Watchdog, WorkerRoster } from '@hookline/scheduler';
import {
  answersWithin,
  fewestReplicasOnline,
  HistoryOutbox,
  type HookQueues,
  type RedisKeys,
} from '@hookline/redis';
import { announce, type SuspensionStore } from '@hookline/suspension';
import { fleetMetrics, refreshedOnScrape, type Logger, type Metrics } from '@hookline/telemetry';
import { gaugesOfFleetRefresh, refreshFleetGauges } from './fleet-gauges';
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
  /** HOOKLINE_REDIS_REPLICA_ACKS: how many replicas of each primary the processes' writes wait for. */
  readonly replicaAcks?: number;
}

const PING_WITHIN_MS = 2_000;

/**
 * The monitor's operations duties: the watchdog's next batch each second; the fleet gauges and whether Redis
 * is there, read when they are scraped (`hookline_redis_up` on its own, so that a read stuck behind a Redis
 * outage cannot leave it at 1).
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
    roster,
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
  };
  if (fleet) {
    const unread = (what: string) => (error: unknown) => log.warn({ err: error }, `${what}: not read`);
    refreshedOnScrape(
      gaugesOfFleetRefresh(fleet),
      // A scrape during a reconnect keeps the last values, as the tick does: nothing is queued behind it.
      async () => {
        if (redis.status === 'ready')
          await refreshFleetGauges({ redis, keys, ready, roster, metrics: fleet, clock });
      },
      unread('fleet gauges'),
    );
    refreshedOnScrape(
      [fleet.redisUp],
      async () => fleet.redisUp.set((await answersWithin(redis, PING_WITHIN_MS)).ok ? 1 : 0),
      unread('hookline_redis_up'),
    );
    // Acknowledgements missing make every publish a 503 while Redis itself answers (hookline_redis_up 1).
    const acks = deps.replicaAcks ?? 0;
    refreshedOnScrape(
      [fleet.redisReplicasShort],
      async () => {
        if (acks === 0) return fleet.redisReplicasShort.set(0);
        if (redis.status === 'ready')
          fleet.redisReplicasShort.set((await fewestReplicasOnline(redis)) < acks ? 1 : 0);
      },
      unread('hookline_redis_replicas_short'),
    );
  }

  // On the process's beat, with the monitor's other once-a-second loops (core/beat.ts).
  const watchdogTicks = runOnBeat(deps.tickMs, tick, (error) =>
    log.error({ err: error }, 'monitor watchdog failed'),
  );

  return {
    async close() {
      watchdogTicks.leave();
      await watchdogTicks.inFlight();
      // Another monitor takes the watchdog over at once; bounded, since Redis may be the reason for stopping.
      await Promise.race([watchdog.release().catch(() => undefined), sleep(1000, undefined, { ref: false })]);
    },
  };
}
