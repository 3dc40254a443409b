import { randomBytes } from 'node:crypto';
import { decodeSecretKey, loadConfig } from '@hookline/config';
import { redisKeys } from '@hookline/core';
import { createRedis, HookQueues } from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import {
  createLogger,
  createMetrics,
  logRedisErrors,
  serveMetrics,
  stopOnSignals,
} from '@hookline/telemetry';
import { startMonitor } from './start-monitor';

// Production entry point of the suspension monitor. One is enough; run two or more for availability.
async function main(): Promise<void> {
  const config = loadConfig(process.env, 'monitor');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-monitor');
  const metrics = createMetrics();
  const redis = createRedis(config);
  logRedisErrors(redis, logger);
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  // The monitor never reads hook credentials, so it does not require the secret key; without one it gets a
  // throwaway key that can decrypt nothing.
  const secretKey = config.HOOKLINE_SECRET_KEY ? decodeSecretKey(config.HOOKLINE_SECRET_KEY) : undefined;
  const secretBox = SecretBox.fromKey(secretKey ?? randomBytes(32));
  const store = createStore({ redis, keys, secretBox, hookQueues: new HookQueues(redis, keys) });
  const monitor = startMonitor({ redis, keys, store, logger, metrics, config });
  const metricsServer = await serveMetrics(metrics.registry, config.HOOKLINE_METRICS_PORT);
  logger.info({ metricsPort: metricsServer.port }, 'monitor listening for metrics');

  stopOnSignals(logger, async () => {
    await monitor.close();
    await metricsServer.close();
    redis.disconnect();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
