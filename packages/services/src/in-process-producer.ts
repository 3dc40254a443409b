import type { Redis } from 'ioredis';
import { loadConfig, secretKeyOf } from '@hookline/config';
import {
  HooklineError,
  notFound,
  redisUnavailable,
  type LogSink,
  type PublishEventInput,
} from '@hookline/core';
import type { PublishOptions, PublishResult } from '@hookline/queue';
import {
  createFailFastRedis,
  HistoryOutbox,
  HookQueues,
  isRedisUnavailable,
  redisKeys,
  watchPrimarySwitches,
} from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { wireProducer } from './producer-wiring';

/** How long a publish may take before it is given up on, unless the call says otherwise. */
export const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;

export interface InProcessPublishOptions extends PublishOptions {
  /** How long the publish may take (default 10 s) before it rejects; see InProcessProducer.publish. */
  readonly timeoutMs?: number;
}

export interface InProcessProducer {
  /**
   * Publishes an event to the account's hooks subscribed to its kind, all or none, as
   * `POST /v1/accounts/{acct}/events` does, and throws the API's HooklineError codes: NOT_FOUND for an unknown
   * account (nothing is written), VALIDATION_FAILED, IDEMPOTENCY_CONFLICT, and REDIS_UNAVAILABLE while Redis
   * cannot serve it. Past `timeoutMs` (default 10 s) it rejects with REDIS_UNAVAILABLE, but the event may still
   * have been accepted: retry with the same `id` (idempotency key), which can never deliver it twice.
   */
  publish(
    accountId: string,
    event: PublishEventInput,
    options?: InProcessPublishOptions,
  ): Promise<PublishResult>;
  /** Finishes the fan-outs under way and disconnects from Redis. */
  close(): Promise<void>;
}

/**
 * The producer a service of the operator's publishes with in-process, wired as the HTTP tier's: the settings
 * read and checked by loadConfig (role `producer`: REDIS_URL or the cluster and sentinel settings,
 * HOOKLINE_QUEUE_PREFIX, HOOKLINE_SECRET_KEY, HOOKLINE_HOLD_MAX, HOOKLINE_EVENT_CATALOG; a ConfigError lists
 * every problem), its own fail-fast Redis connection, the erasure tags, the catalogue and the hold cap.
 */
export function createProducer(
  env: Readonly<Record<string, string | undefined>>,
  // No tracing: its publish makes no span, and the `trace` given goes on as the attempts' parent (README).
  options: { readonly log?: LogSink } = {},
): InProcessProducer {
  const config = loadConfig(env, 'producer');
  // Fail fast, as the HTTP tier: a Redis outage becomes REDIS_UNAVAILABLE at once, not a wait on a retry.
  const redis: Redis = createFailFastRedis(config, { connectionName: `hookline-producer-${process.pid}` });
  // With Sentinel, a primary that hangs instead of dying closes no socket: the watcher moves this client to the
  // primary the sentinels promote, as it does in every hookline process (@hookline/redis, sentinel-switches.ts).
  const switches = watchPrimarySwitches(config, ({ from, to, left }) =>
    options.log?.warn(
      { from: `${from.host}:${from.port}`, to: `${to.host}:${to.port}`, connectionsLeft: left },
      'redis sentinels switched the primary',
    ),
  );
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const hookQueues = new HookQueues(redis, keys);
  const store = createStore({
    redis,
    keys,
    secretBox: SecretBox.fromKey(secretKeyOf(config)),
    hookQueues,
    catalog: config.eventCatalog,
  });
  const producer = wireProducer({
    redis,
    keys,
    store,
    hookQueues,
    outbox: new HistoryOutbox(redis, keys),
    holdMax: config.HOOKLINE_HOLD_MAX,
    catalog: config.eventCatalog,
    ...(options.log ? { log: options.log } : {}),
  });

  // The account first, as the API's route scope: an unknown one is refused before anything is written.
  const publish = async (
    accountId: string,
    event: PublishEventInput,
    trace: PublishOptions['trace'],
  ): Promise<PublishResult> => {
    try {
      await opened(redis);
      if (!(await store.accounts.get(accountId))) throw notFound('Account');
      return await producer.publish(accountId, event, trace ? { trace } : undefined);
    } catch (error) {
      if (!(error instanceof HooklineError) && isRedisUnavailable(error, redis)) throw redisUnavailable();
      throw error;
    }
  };

  return {
    publish: (accountId, event, { timeoutMs = DEFAULT_PUBLISH_TIMEOUT_MS, trace } = {}) =>
      within(timeoutMs, publish(accountId, event, trace)),
    close: async () => {
      await producer.close();
      redis.disconnect();
      switches?.close();
    },
  };
}

// The client queues no command while it is not connected (fail fast): a publish that comes while the connection
// is still opening waits for it to open or fail, rather than being refused by a client that was about to be ready.
// A connection lost later is not waited for: that is the outage the caller is told about at once. (The client is
// made without lazyConnect, so it is connecting from the start: never in ioredis' status before that.)
async function opened(redis: Redis): Promise<void> {
  if (redis.status !== 'connecting' && redis.status !== 'connect') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const name of ['ready', 'error', 'close']) redis.off(name, done);
      resolve();
    };
    for (const name of ['ready', 'error', 'close']) redis.on(name, done);
  });
}

// A Redis that accepts connections and never answers would otherwise leave the publish unsettled for ever.
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HooklineError(
            'REDIS_UNAVAILABLE',
            `The publish did not finish within ${ms} ms; the event may still have been accepted: ` +
              'retry with the same id',
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
