import type { Redis } from 'ioredis';
import { secretKeyOf, loadConfig, type Config } from '@hookline/config';
import { createFailFastRedis, createServices, type HookControl, type Producer } from '@hookline/queue';
import {
  closeHttp,
  createLogger,
  createMetrics,
  logRedisErrors,
  stopOnSignals,
  type Logger,
  type Metrics,
} from '@hookline/telemetry';
import { buildApp } from './app';
import type { ApiDeps } from './deps';

export type ProductionApiDeps = ApiDeps & { readonly producer: Producer; readonly control: HookControl };

/** The production parts behind the API, all on one fail-fast Redis client. */
export function createApiDeps(
  config: Config,
  redis: Redis,
  logger: Logger,
  metrics: Metrics,
): ProductionApiDeps {
  const services = createServices({
    redis,
    settings: config,
    secretKey: secretKeyOf(config),
    log: logger,
  });
  const { store, producer, control } = services;
  return { config, redis, store, producer, control, metrics, logger };
}

/**
 * The API process: config, Redis, the app, and the SIGTERM path (stop taking requests, finish those in
 * flight within HOOKLINE_HTTP_DRAIN_MS, exit 0). Redis may be down at start: the API then answers 503 until
 * it is back.
 */
export async function runApiProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-api');
  const redis = createFailFastRedis(config);
  logRedisErrors(redis, logger);
  const deps = createApiDeps(config, redis, logger, createMetrics());
  const app = buildApp(deps);
  await app.listen({ port: config.PORT, host: config.HOST });
  stopOnSignals(logger, async () => {
    await closeHttp(app, config.HOOKLINE_HTTP_DRAIN_MS);
    await deps.producer.close();
    redis.disconnect();
  });
}
