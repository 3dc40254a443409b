import { decodeSecretKey, loadConfig } from '@hookline/config';
import { redisKeys } from '@hookline/core';
import { createRedis, HookQueues } from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger, createMetrics, serveMetrics } from '@hookline/telemetry';
import { startWorker } from './start-worker';

// Production entry point of a delivery process. Run as many as you like, on as many machines, against one Redis.
async function main(): Promise<void> {
  const config = loadConfig(process.env, 'worker');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-worker');
  const metrics = createMetrics();
  const redis = createRedis(config.REDIS_URL);
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const secretBox = SecretBox.fromKey(decodeSecretKey(config.HOOKLINE_SECRET_KEY!)!);
  const store = createStore({ redis, keys, secretBox, hookQueues: new HookQueues(redis, keys) });
  const worker = startWorker({ config, redis, keys, store, metrics, logger });
  const metricsServer = await serveMetrics(metrics.registry, config.HOOKLINE_METRICS_PORT);
  logger.info(
    { metricsPort: metricsServer.port, maxHooks: config.HOOKLINE_WORKER_MAX_HOOKS },
    'worker started',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the attempt in flight');
    await worker.close();
    await metricsServer.close();
    redis.disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
