import { decodeSecretKey, loadConfig } from '@hookline/config';
import { createFailFastRedis, createServices } from '@hookline/queue';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { buildHttpServer } from './http-server';

// Production entry point of the HTTP tier: API, website and Bull Board on PORT. Run several behind a load
// balancer; workers and the monitor run as their own processes.
async function main(): Promise<void> {
  const config = loadConfig(process.env, 'api');
  const logger = createLogger(config.LOG_LEVEL, 'hookline-http');
  const redis = createFailFastRedis(config.REDIS_URL);
  redis.on('error', (error: Error) => logger.debug({ err: error }, 'redis connection error'));
  const services = createServices({
    redis,
    settings: config,
    secretKey: decodeSecretKey(config.HOOKLINE_SECRET_KEY!)!,
    log: logger,
  });
  const app = await buildHttpServer({ config, redis, services, logger, metrics: createMetrics() });
  await app.listen({ port: config.PORT, host: config.HOST });
  const stop = async () => {
    await app.close();
    await services.close();
    redis.disconnect();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
