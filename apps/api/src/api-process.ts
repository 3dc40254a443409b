import type { Redis } from 'ioredis';
import { decodeSecretKey, loadConfig, type Config } from '@hookline/config';
import { redisKeys } from '@hookline/core';
import {
  createFailFastRedis,
  createHoldCap,
  HookControl,
  HookQueues,
  Producer,
  ReadySet,
} from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger, createMetrics, type Logger, type Metrics } from '@hookline/telemetry';
import { buildApp } from './app';
import type { ApiDeps } from './deps';

/** ApiDeps as production builds them; the concrete classes let the all-in-one start and tests reuse them. */
export type ProductionApiDeps = ApiDeps & { readonly producer: Producer; readonly control: HookControl };

/** The production parts behind the API, all on one fail-fast Redis client. */
export function createApiDeps(
  config: Config,
  redis: Redis,
  logger: Logger,
  metrics: Metrics,
): ProductionApiDeps {
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const hookQueues = new HookQueues(redis, keys);
  const secretBox = SecretBox.fromKey(decodeSecretKey(config.HOOKLINE_SECRET_KEY!)!);
  const store = createStore({ redis, keys, secretBox, hookQueues });
  const holdCap = createHoldCap({ redis, keys, deliveryLog: store.deliveryLog });
  const producer = new Producer({
    redis,
    keys,
    // Past HOOKLINE_HOLD_MAX held events, a suspended hook drops its oldest (recorded `expired`).
    onHeld: (hookIds) => Promise.all(hookIds.map((id) => holdCap(id, config.HOOKLINE_HOLD_MAX))),
  });
  const ready = new ReadySet(redis, keys);
  const control = new HookControl({
    redis,
    keys,
    hookQueues,
    store,
    signalReady: (hookId) => ready.signal([hookId]),
    log: logger,
  });
  return { config, redis, store, producer, control, metrics, logger };
}

/**
 * The API process: config, Redis, the app, and the SIGTERM path (stop taking requests, finish those in
 * flight, exit 0). Redis may be down at start: the API then answers 503 until it is back.
 */
export async function runApiProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-api');
  const metrics = createMetrics();
  const redis = createFailFastRedis(config.REDIS_URL);
  let lastRedisError = '';
  redis.on('error', (error: Error) => {
    // ioredis repeats the same error on every reconnect attempt; one line per change is enough.
    if (error.message !== lastRedisError) logger.warn({ err: error }, 'redis connection error');
    lastRedisError = error.message;
  });
  redis.on('ready', () => {
    lastRedisError = '';
    logger.info('redis connected');
  });
  const app = buildApp(createApiDeps(config, redis, logger, metrics));
  await app.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    await app.close();
    redis.disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
