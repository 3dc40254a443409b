import { randomBytes } from 'node:crypto';
import { decodeSecretKey } from '@hookline/config';
import { startMonitor } from '@hookline/monitor';
import { createRedis, HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { serveMetrics } from '@hookline/telemetry';
import { runProcess } from './bootstrap';

// Production entry point of the suspension monitor. One is enough; run two or more for availability.
runProcess(process.env, 'monitor', 'hookline-monitor', async ({ config, logger, metrics, watch }) => {
  const redis = watch(createRedis(config));
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  // The monitor never reads hook credentials, so it does not require the secret key; without one it gets a
  // throwaway key that can decrypt nothing.
  const secretKey = config.HOOKLINE_SECRET_KEY ? decodeSecretKey(config.HOOKLINE_SECRET_KEY) : undefined;
  const secretBox = SecretBox.fromKey(secretKey ?? randomBytes(32));
  const store = createStore({ redis, keys, secretBox, hookQueues: new HookQueues(redis, keys) });
  const monitor = startMonitor({ redis, keys, store, logger, metrics, config });
  const metricsServer = await serveMetrics(metrics.registry, config.HOOKLINE_METRICS_PORT);
  logger.info({ metricsPort: metricsServer.port }, 'monitor listening for metrics');
  return async () => {
    await monitor.close();
    await metricsServer.close();
    redis.disconnect();
  };
});
