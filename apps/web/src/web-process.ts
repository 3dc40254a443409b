import { decodeSecretKey, loadConfig } from '@hookline/config';
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
import { createLogger } from '@hookline/telemetry';
import { buildWebApp } from './web-app';

/**
 * The website on its own (the all-in-one start mounts it beside the API instead): config, Redis, the app,
 * and SIGTERM (finish requests in flight, exit 0). It needs the same secret key as the API and workers,
 * because it stores the hook credentials customers enter.
 */
export async function runWebProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-web');
  const redis = createFailFastRedis(config.REDIS_URL);
  let lastRedisError = '';
  redis.on('error', (error: Error) => {
    if (error.message !== lastRedisError) logger.warn({ err: error }, 'redis connection error');
    lastRedisError = error.message;
  });
  redis.on('ready', () => {
    lastRedisError = '';
  });

  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const hookQueues = new HookQueues(redis, keys);
  const secretBox = SecretBox.fromKey(decodeSecretKey(config.HOOKLINE_SECRET_KEY!)!);
  const store = createStore({ redis, keys, secretBox, hookQueues });
  const holdCap = createHoldCap({ redis, keys, deliveryLog: store.deliveryLog });
  const producer = new Producer({
    redis,
    keys,
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
  const app = await buildWebApp({ config, redis, keys, store, producer, control, hookQueues, logger });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, 'website listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    await app.close();
    await producer.close();
    redis.disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
