import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import type { RedisKeys } from '@hookline/redis';
import { systemClock, USER_AGENT, type Clock } from '@hookline/core';
import { createDeliverer } from '@hookline/delivery';
import { HookQueues } from '@hookline/redis';
import { ReadySet } from '@hookline/queue';
import type { AttemptLedger } from '@hookline/store';
import { logRedisErrors, type Logger, type Metrics } from '@hookline/telemetry';
import { createDeliverJob } from './deliver-job';
import { DEFAULT_TIMINGS, HookAttachments, type AttachmentOptions } from './hook-attachments';
import { OutcomeRecorder } from './outcome-recorder';
import { shareScriptsWithDuplicates } from './shared-scripts';

export interface WorkerDeps {
  config: Pick<
    Config,
    | 'HOOKLINE_DELIVERY_TIMEOUT_MS'
    | 'HOOKLINE_ALLOW_NETWORKS'
    | 'HOOKLINE_EVENT_TYPE_HEADER'
    | 'HOOKLINE_WORKER_MAX_HOOKS'
    | 'HOOKLINE_WORKER_IDLE_MS'
  >;
  /** A connection with maxRetriesPerRequest: null; the worker duplicates it for its blocking reads. */
  redis: Redis;
  keys: RedisKeys;
  store: { attempts: AttemptLedger };
  metrics: Metrics;
  logger: Logger;
  clock?: Clock;
  /** Tests shorten the crash-recovery timings; production uses DEFAULT_TIMINGS. */
  timings?: Partial<Pick<AttachmentOptions, 'leaseMs' | 'lockDurationMs' | 'stalledIntervalMs'>>;
}

export interface RunningWorker {
  /** SIGTERM path: takes no new events, lets the attempt in flight finish, releases every hook. */
  close(): Promise<void>;
  attachedCount(): number;
}

export function startWorker(deps: WorkerDeps): RunningWorker {
  const { config, redis, keys, logger, metrics } = deps;
  const clock = deps.clock ?? systemClock;
  const deliverer = createDeliverer({
    timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
    allowNetworks: config.HOOKLINE_ALLOW_NETWORKS,
  });
  const hookQueues = new HookQueues(redis, keys);
  const processor = createDeliverJob({
    attempts: deps.store.attempts,
    recorder: new OutcomeRecorder({ redis, keys, attempts: deps.store.attempts, metrics, logger }),
    attempt: (request) => deliverer.attempt(request),
    eventTypeHeader: config.HOOKLINE_EVENT_TYPE_HEADER,
    userAgent: USER_AGENT,
    clock,
  });
  // BullMQ loads its scripts onto the connection its Workers use, and every multi()/pipeline() on that
  // connection then copies them: our own commands stay on `redis`, the Workers get a connection of their own,
  // whose duplicates (one blocking connection per attached hook) reuse its scripts.
  const bullConnection = shareScriptsWithDuplicates(logRedisErrors(redis.duplicate(), logger));
  const attachments = new HookAttachments({
    connection: bullConnection,
    blocking: logRedisErrors(redis.duplicate(), logger),
    keys,
    ready: new ReadySet(redis, keys, clock),
    hookQueues,
    processor,
    logger,
    metrics,
    options: {
      ...DEFAULT_TIMINGS,
      ...deps.timings,
      maxHooks: config.HOOKLINE_WORKER_MAX_HOOKS,
      idleMs: config.HOOKLINE_WORKER_IDLE_MS,
    },
  });
  attachments.start();
  return {
    async close() {
      await attachments.close();
      await deliverer.close();
      bullConnection.disconnect();
    },
    attachedCount: () => attachments.count,
  };
}
