import { secretKeyOf, loadConfig } from '@hookline/config';
import { createFailFastRedis, createServices } from '@hookline/queue';
import { closeHttp, createLogger, logRedisErrors, stopOnSignals } from '@hookline/telemetry';
import { buildWebApp } from './web-app';

/**
 * The website on its own (the all-in-one start mounts it beside the API instead): config, Redis, the app,
 * and SIGTERM (finish requests in flight within HOOKLINE_HTTP_DRAIN_MS, exit 0). It needs the same secret
 * key as the API and workers, because it stores the hook credentials customers enter.
 */
export async function runWebProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-web');
  const redis = createFailFastRedis(config);
  logRedisErrors(redis, logger);
  const services = createServices({
    redis,
    settings: config,
    secretKey: secretKeyOf(config),
    log: logger,
  });
  const { keys, store, producer, control, hookQueues } = services;
  const app = await buildWebApp({ config, redis, keys, store, producer, control, hookQueues, logger });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, 'website listening');
  stopOnSignals(logger, async () => {
    await closeHttp(app, config.HOOKLINE_HTTP_DRAIN_MS);
    await services.close();
    redis.disconnect();
  });
}
