import { secretKeyOf, loadConfig } from '@hookline/config';
import { redisKeys } from '@hookline/core';
import { createRedis, HookQueues } from '@hookline/queue';
import { createStore, SecretBox, type Store } from '@hookline/store';
import {
  createLogger,
  createMetrics,
  logRedisErrors,
  serveMetrics,
  stopOnSignals,
} from '@hookline/telemetry';
import { startWorker } from './start-worker';

/**
 * A whole delivery process: config from the environment, Redis, store, worker, metrics endpoint, and the
 * SIGTERM path (no new attempts, the one in flight finishes, exit 0). `adaptStore` lets crash tests slow
 * one dependency down while keeping the production wiring.
 */
export async function runWorkerProcess(
  env: NodeJS.ProcessEnv,
  options: { adaptStore?: (store: Store) => Store } = {},
): Promise<void> {
  const config = loadConfig(env, 'worker');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-worker');
  const metrics = createMetrics();
  const redis = createRedis(config);
  logRedisErrors(redis, logger);
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const secretBox = SecretBox.fromKey(secretKeyOf(config));
  const baseStore = createStore({ redis, keys, secretBox, hookQueues: new HookQueues(redis, keys) });
  const store = options.adaptStore ? options.adaptStore(baseStore) : baseStore;
  const worker = startWorker({ config, redis, keys, store, metrics, logger });
  const metricsServer = await serveMetrics(metrics.registry, config.HOOKLINE_METRICS_PORT);
  logger.info(
    { metricsPort: metricsServer.port, maxHooks: config.HOOKLINE_WORKER_MAX_HOOKS },
    'worker started',
  );

  stopOnSignals(logger, async () => {
    await worker.close();
    await metricsServer.close();
    redis.disconnect();
  });
}
