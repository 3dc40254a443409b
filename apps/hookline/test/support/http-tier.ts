import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, secretKeyOf } from '@hookline/config';
import { createServices } from '@hookline/services';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { TEST_DATABASE_URL, TEST_REDIS_URL, type useRedis } from '@hookline/testing';
import { buildHttpServer } from '../../src/http-server';
import { openTestHistory } from './test-history';

/**
 * The HTTP tier as http-main wires it, on the test's Redis prefix, listening on 127.0.0.1:0; with a secret key of
 * its own unless `settings` give HOOKLINE_SECRET_KEY.
 */
export async function startHttpTier(
  ctx: ReturnType<typeof useRedis>,
  settings: Record<string, string>,
  role: Parameters<typeof loadConfig>[1] = 'api',
): Promise<{ app: FastifyInstance; base: string }> {
  const config = loadConfig(
    {
      HOOKLINE_API_KEY: 'k'.repeat(32),
      HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      REDIS_URL: TEST_REDIS_URL,
      DATABASE_URL: TEST_DATABASE_URL,
      ...settings,
    },
    role,
  );
  const history = await openTestHistory(ctx.onCleanup, 'http');
  const services = createServices({
    redis: ctx.redis,
    settings: config,
    secretKey: secretKeyOf(config),
    historyDb: history.client,
  });
  ctx.onCleanup(() => services.close());
  const app = await buildHttpServer({
    config,
    redis: ctx.redis,
    services,
    logger: createLogger('silent', 'test'),
    metrics: createMetrics(),
  });
  ctx.onCleanup(() => app.close());
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}
