import { secretKeyOf, loadConfig } from '@hookline/config';
import { createFailFastRedis, createServices } from '@hookline/queue';
import { closeHttp, createLogger, createMetrics, logRedisErrors, stopOnSignals } from '@hookline/telemetry';
import { buildHttpServer } from './http-server';

// Production entry point of the HTTP tier: API, website and Bull Board on PORT. Run several behind a load
// balancer; workers and the monitor run as their own processes.
async function main(): Promise<void> {
  const config = loadConfig(process.env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-http');
  const redis = createFailFastRedis(config);
  logRedisErrors(redis, logger);
  const services = createServices({
    redis,
    settings: config,
    secretKey: secretKeyOf(config),
    log: logger,
  });
  const app = await buildHttpServer({ config, redis, services, logger, metrics: createMetrics() });
  await app.listen({ port: config.PORT, host: config.HOST });
  stopOnSignals(logger, async () => {
    await closeHttp(app, config.HOOKLINE_HTTP_DRAIN_MS);
    await services.close();
    redis.disconnect();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
