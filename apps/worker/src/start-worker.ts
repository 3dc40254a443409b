import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import type { RedisKeys } from '@hookline/redis';
import {
  deliveryUserAgent,
  isDropped,
  OUTCOMES,
  systemClock,
  type Clock,
  type Tracing,
} from '@hookline/core';
import { createDeliverer, OAuthTokens, parseEgressProxy } from '@hookline/delivery';
import {
  EgressWaits,
  HistoryOutbox,
  HookJobs,
  HookQueues,
  OutboxMarks,
  replicaAcksOf,
} from '@hookline/redis';
import {
  DEFAULT_TIMINGS,
  ENGINE_TIMINGS,
  engineFigures,
  HookConsumer,
  ReadySet,
  WorkerRoster,
  type ConsumerTimings,
} from '@hookline/scheduler';
import type { Store } from '@hookline/store';
import { watchedDuplicate, type Logger, type Metrics } from '@hookline/telemetry';
import { createDeliverEvent } from './deliver-event';
import { EgressBackoff } from './egress-backoff';
import { OutcomeRecorder } from './outcome-recorder';

export interface WorkerDeps {
  config: Pick<
    Config,
    | 'HOOKLINE_DELIVERY_TIMEOUT_MS'
    | 'HOOKLINE_ALLOW_NETWORKS'
    | 'HOOKLINE_EVENT_TYPE_HEADER'
    | 'HOOKLINE_WORKER_MAX_HOOKS'
  > &
    Partial<Pick<Config, 'HOOKLINE_TRACE_PROPAGATE' | 'HOOKLINE_BRAND_NAME'>> & {
      HOOKLINE_EGRESS_PROXY?: string | undefined;
    };
  /**
   * A connection with maxRetriesPerRequest: null, for every command but the blocking wait on the ready set
   * (the worker duplicates it once for that). The attempt ledger of `store` must use this same connection:
   * the worker relies on Redis running its commands in the order they were sent.
   */
  redis: Redis;
  keys: RedisKeys;
  store: Pick<Store, 'attempts' | 'erasureTags'>;
  metrics: Metrics;
  logger: Logger;
  clock?: Clock;
  /** `hookline.delivery` spans, when the process has an exporter (startTracing). */
  tracing?: Tracing;
  /** Tests shorten the crash-recovery timings; production uses DEFAULT_TIMINGS. */
  timings?: Partial<ConsumerTimings> & { lockMs?: number; outcomeRetryMs?: number } & Partial<EgressTimings>;
}

/** How long an event the egress proxy kept from leaving waits: doubling from the first wait, up to the last. */
export interface EgressTimings {
  egressFirstWaitMs: number;
  egressMaxWaitMs: number;
}
export const DEFAULT_EGRESS_TIMINGS: EgressTimings = { egressFirstWaitMs: 1_000, egressMaxWaitMs: 30_000 };

export interface RunningWorker {
  /** SIGTERM path: takes no new events, lets the attempts in flight finish (up to a bound), gives hooks back. */
  close(): Promise<void>;
  heldCount(): number;
}

export function startWorker(deps: WorkerDeps): RunningWorker {
  const { config, redis, keys, logger, metrics } = deps;
  const clock = deps.clock ?? systemClock;
  const deadlineMs = config.HOOKLINE_DELIVERY_TIMEOUT_MS;
  const deliverer = createDeliverer({
    timeoutMs: deadlineMs,
    allowNetworks: config.HOOKLINE_ALLOW_NETWORKS,
    ...(config.HOOKLINE_EGRESS_PROXY ? { proxy: parseEgressProxy(config.HOOKLINE_EGRESS_PROXY) } : {}),
  });
  const timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  // The engine's timing table (packages/scheduler/src/timings.ts) sizes the job lock and the SIGTERM wait.
  const figures = engineFigures(deadlineMs, timings, deps.timings?.lockMs);
  // With replica acknowledgements a WAIT holds the command connection for up to 1 s, and while no replica
  // answers (a failover, until a replica is back) the holdings' WAITs queue one behind another: a lease
  // renewal or a lock extension sent behind them arrived after its lease or lock had expired (every holding
  // of the process stopped; a job was taken over and its unsent event recorded `unknown`). Those commands
  // then go on a connection of their own; none needs an acknowledgement (DESIGN.md, "A failover, write by
  // write"). Without acknowledgements no command holds the connection, and the process keeps two.
  const leasesRedis = replicaAcksOf(redis) > 0 ? watchedDuplicate(redis, logger) : redis;
  const jobs = new HookJobs(redis, keys, figures.lockMs, leasesRedis);
  const marks = new OutboxMarks(new HistoryOutbox(redis, keys), (error) =>
    logger.warn({ err: error }, 'could not mark hooks for the history writer; its sweep will'),
  );
  // A failing write about a job this holder may have marked is tried again for as long as its lock (write-retry.ts).
  const retryMs = deps.timings?.outcomeRetryMs ?? figures.lockMs;
  const deliver = createDeliverEvent({
    attempts: deps.store.attempts,
    erasureTags: deps.store.erasureTags,
    recorder: new OutcomeRecorder({
      redis,
      keys,
      attempts: deps.store.attempts,
      erasureTags: deps.store.erasureTags,
      marks,
      metrics,
      logger,
      retryMs,
    }),
    attempt: (request, began) => deliverer.attempt(request, began),
    oauth: new OAuthTokens((request, began) => deliverer.attempt(request, began)),
    eventTypeHeader: config.HOOKLINE_EVENT_TYPE_HEADER,
    userAgent: deliveryUserAgent(config.HOOKLINE_BRAND_NAME),
    deadlineMs,
    sendMarginMs: ENGINE_TIMINGS.sendMarginMs,
    clock,
    ...(deps.tracing ? { tracing: deps.tracing } : {}),
    propagateTrace: config.HOOKLINE_TRACE_PROPAGATE === true,
    markRetryMs: retryMs,
    logger,
  });
  // Every outcome a worker records is exported from the start, at 0: a rate over `unknown` must not be "no
  // data" until the first crash. (`expired` and `discarded` are not attempts, and never counted here.)
  for (const outcome of OUTCOMES.filter((o) => !isDropped(o))) metrics.deliveries.inc({ outcome }, 0);
  const egressTimings = { ...DEFAULT_EGRESS_TIMINGS, ...deps.timings };
  const egress = new EgressBackoff({
    waits: new EgressWaits(redis, keys),
    metrics,
    logger,
    clock,
    firstMs: egressTimings.egressFirstWaitMs,
    maxMs: egressTimings.egressMaxWaitMs,
  });
  const holderId = `w_${randomUUID()}`;
  const consumer = new HookConsumer({
    blocking: watchedDuplicate(redis, logger),
    ready: new ReadySet(leasesRedis, keys, clock),
    jobs,
    queues: new HookQueues(redis, keys),
    deliver,
    // A holding's first job is taken and begun in one script, like the jobs its finishes take.
    takeAndBegin: (take) => deps.store.attempts.takeAndBegin(take),
    egress,
    holderId,
    roster: new WorkerRoster(leasesRedis, keys, clock),
    name: `${hostname()}/${process.pid}/${holderId.slice(2, 10)}`,
    maxHooks: config.HOOKLINE_WORKER_MAX_HOOKS,
    timings,
    logger,
    metrics,
  });
  consumer.start();
  return {
    async close() {
      const unfinished = await consumer.close(figures.closeBoundMs);
      await deliverer.close();
      await marks.flush();
      if (leasesRedis !== redis) leasesRedis.disconnect();
      // Said, and exit 1: an attempt whose outcome could not be written (Redis answering nothing) is recorded
      // `unknown` by whoever takes its job over, though its endpoint may have answered.
      if (unfinished.length > 0)
        throw new Error(
          `stopped before the work of ${unfinished.length} hook(s) finished (Redis did not answer within ` +
            `${figures.closeBoundMs} ms): an attempt in flight is recorded unknown by the next worker. Hooks: ` +
            unfinished.slice(0, 20).join(', '),
        );
    },
    heldCount: () => consumer.count,
  };
}
