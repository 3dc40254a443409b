import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import {
  apiPlugin,
  BODY_LIMIT,
  clientErrorHandler,
  errorHandler,
  requestLogging,
  routerLimits,
} from '@hookline/api';
import type { Config } from '@hookline/config';
import { mountAdmin } from '@hookline/admin';
import { parseEgressProxy, proxyAnswers } from '@hookline/delivery';
import { EgressWaits } from '@hookline/redis';
import { type Services } from '@hookline/services';
import { watchedDuplicate, type Logger, type Metrics } from '@hookline/telemetry';
import { webFrameworkErrors, webNotFound, webPlugin, type WebDeps } from '@hookline/web';

export interface HttpServerDeps {
  readonly config: Config;
  /** Fail-fast Redis client with a deadline per command (createRequestRedis): an outage answers 503, never a hang. */
  readonly redis: Redis;
  readonly services: Services;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/**
 * Everything hookline serves over HTTP on one port: the API under /v1 (with /healthz, /readyz, /metrics and
 * /openapi.json), the customer website at /, and Bull Board under /admin for admins. Built without listening.
 */
export async function buildHttpServer(deps: HttpServerDeps): Promise<FastifyInstance> {
  const { config, redis, services, logger, metrics } = deps;
  const {
    store,
    producer,
    control,
    hookQueues,
    keys,
    history,
    historyAnswers,
    historyLagMs,
    audit,
    portalLinks,
  } = services;
  const webDeps: WebDeps = {
    config,
    redis,
    keys,
    store,
    history,
    producer,
    control,
    hookQueues,
    audit,
    portalLinks,
    logger,
  };
  const app = Fastify({
    loggerInstance: logger,
    // Access lines at debug, errors as ever, no child logger per request unless it writes (request-log.ts).
    ...requestLogging(),
    // Ids of any length reach their route (the API's and the website's), whose own 404 says what was not found.
    ...routerLimits(),
    bodyLimit: BODY_LIMIT,
    // Receive deadlines: Node's defaults (60 s for headers, 300 s for a request, checked every 30 s) let an
    // anonymous client that trickles a body hold a connection for minutes. Checked every second instead.
    requestTimeout: config.HOOKLINE_HTTP_REQUEST_TIMEOUT_MS,
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: config.HOOKLINE_HTTP_HEADERS_TIMEOUT_MS,
          requestTimeout: config.HOOKLINE_HTTP_REQUEST_TIMEOUT_MS,
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    genReqId: () => randomUUID(),
    // X-Forwarded-For / -Proto are believed only from the proxies named; anyone else could claim any address.
    trustProxy: config.HOOKLINE_TRUST_PROXY.length > 0 ? config.HOOKLINE_TRUST_PROXY.join(',') : false,
    requestIdHeader: false,
    // Errors met before any route (a path that cannot be decoded): a page for a browser, the API's error shape
    // for everyone else, never Fastify's own JSON.
    frameworkErrors: webFrameworkErrors(webDeps, errorHandler(redis)),
    // Requests Node's parser refuses (headers over 16 KiB, too slow, not HTTP): the API's error shape too.
    clientErrorHandler,
  }) as unknown as FastifyInstance;

  const proxy = config.HOOKLINE_EGRESS_PROXY ? parseEgressProxy(config.HOOKLINE_EGRESS_PROXY) : undefined;
  const egressWaits = new EgressWaits(redis, keys);
  const egressProxy = proxy && {
    shown: proxy.shown,
    answers: (ms: number) => proxyAnswers(proxy, ms),
    waiting: () => egressWaits.fleet(new Date()),
  };
  await app.register(apiPlugin, {
    deps: {
      config,
      redis,
      store,
      history,
      historyAnswers,
      historyLagMs,
      producer,
      control,
      audit,
      portalLinks,
      metrics,
      logger,
      ...(egressProxy ? { egressProxy } : {}),
    },
  });
  await app.register(webPlugin(webDeps));
  if (config.HOOKLINE_ADMIN_PASSWORD)
    await mountAdmin(app, {
      redis,
      duplicateRedis: () => watchedDuplicate(redis, logger, 'admin board: redis connection error'),
      keys,
      hooks: store.hooks,
      accounts: store.accounts,
      control,
      admin: { user: config.HOOKLINE_ADMIN_USER, password: config.HOOKLINE_ADMIN_PASSWORD },
      https: config.HOOKLINE_PUBLIC_URL?.startsWith('https://') === true,
      audit,
    });
  app.setNotFoundHandler(webNotFound(webDeps));
  return app;
}
