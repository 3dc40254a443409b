import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ApiDeps } from './deps';
import { errorHandler, notFoundHandler } from './error-handler';
import { clientErrorHandler } from './client-errors';
import { refuseEncodedBody } from './content-encoding';
import { answerExpectContinue } from './expect-continue';
import { BODY_LIMIT, parseJsonBody } from './json-body';
import { checkJsonMediaType } from './json-media-type';
import { methodNotAllowedRoutes } from './method-not-allowed';
import { requireOperatorKey } from './operator-auth';
import { waitForPrimary } from './primary-wait';
import { requestLogging } from './request-log';
import { routerLimits } from './router-options';
import { fastifyPath, type Route } from './route';
import { routeHandler } from './route-runner';
import { accountRoutes } from './routes/accounts';
import { activityRoutes } from './routes/activity';
import { auditRoutes } from './routes/audit';
import { deliveryRoutes } from './routes/deliveries';
import { erasureRoutes } from './routes/erasures';
import { eventRoutes } from './routes/events';
import { eventTypeRoutes } from './routes/event-types';
import { healthRoutes } from './routes/health';
import { heldEventRoutes } from './routes/held-events';
import { hookActionRoutes } from './routes/hook-actions';
import { hookRoutes } from './routes/hooks';
import { openApiRoute } from './routes/openapi';
import { portalLinkRoutes } from './routes/portal-links';

/** The route table: everything the API serves, openapi.json included. */
export function apiRoutes(deps: ApiDeps): Route[] {
  const routes = [
    ...healthRoutes(deps),
    ...accountRoutes(deps),
    ...hookRoutes(deps),
    ...hookActionRoutes(deps),
    ...heldEventRoutes(deps),
    ...deliveryRoutes(deps),
    ...activityRoutes(deps),
    ...erasureRoutes(deps),
    ...auditRoutes(deps),
    ...portalLinkRoutes(deps),
    ...eventRoutes(deps),
    ...eventTypeRoutes(deps),
  ];
  return [...routes, openApiRoute(routes)];
}

/**
 * The API as a fastify plugin: register it on any instance (the all-in-one start mounts it beside the
 * website). Its JSON parser, error handler and auth stay inside its own encapsulation context.
 */
export async function apiPlugin(app: FastifyInstance, options: { deps: ApiDeps }): Promise<void> {
  const { deps } = options;
  const apiKey = deps.config.HOOKLINE_API_KEY;
  if (!apiKey) throw new Error('HOOKLINE_API_KEY is required to serve the API');
  const operatorOnly = requireOperatorKey(apiKey);

  // Only JSON is accepted (anything else is 415), and parsed losslessly (see json-body.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      try {
        checkJsonMediaType(request);
        done(null, parseJsonBody(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.setErrorHandler(errorHandler(deps.redis));
  // A body declared over the limit with Expect: 100-continue is refused before it is sent (expect-continue.ts).
  answerExpectContinue(app.server);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // Answers carry once-only secrets (signing_secret) and customers' data: no cache on the way keeps them.
    void reply.header('cache-control', 'no-store');
  });
  // Through Sentinel, a request during a failover waits (bounded) for the promoted primary before it runs.
  const primaryWait = waitForPrimary(deps.redis);
  if (primaryWait) app.addHook('onRequest', primaryWait);

  const routes = apiRoutes(deps);
  for (const route of routes)
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      bodyLimit: BODY_LIMIT,
      ...(route.auth ? { onRequest: operatorOnly } : {}),
      // A compressed body is refused (415) after the key is checked and before it is read (content-encoding.ts).
      ...(route.method !== 'GET' ? { preParsing: refuseEncodedBody } : {}),
      handler: routeHandler(route, deps),
    });
  // A path the table serves, asked with another method: 405 with Allow (method-not-allowed.ts), not the 404 below.
  for (const refusal of methodNotAllowedRoutes(routes, app.supportedMethods, operatorOnly))
    app.route(refusal);
  // Unknown paths under /v1 answer in the API's own shape wherever the plugin is mounted (the
  // all-in-one server's own not-found handler serves the website's pages). Every /v1 route needs the key, so
  // the key is asked for first here too: without it, 404 against 401 would tell a stranger which paths exist.
  // `/v1` itself included: the start banner prints it, and it is as much an API path as any below it.
  app.all('/v1', { onRequest: operatorOnly }, notFoundHandler);
  app.all('/v1/*', { onRequest: operatorOnly }, notFoundHandler);
}

/** The API as a standalone server, built without listening: main.ts listens, tests listen on port 0. */
export function buildApp(deps: ApiDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger,
    ...requestLogging(),
    // Ids of any length reach their route, whose own 404 names what was not found (router-options.ts).
    ...routerLimits(),
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    // Our own ids only: a caller-chosen id could be made to collide with another request's in the logs.
    requestIdHeader: false,
    // A path that cannot be decoded never reaches a route or the error handler: answer it in the catalogue's
    // shape too, not Fastify's own ({"error":"Bad Request","code":"FST_ERR_BAD_URL",…}).
    frameworkErrors: (error, request, reply) => void errorHandler(deps.redis)(error, request, reply),
    clientErrorHandler,
  }) as unknown as FastifyInstance;
  app.setErrorHandler(errorHandler(deps.redis));
  app.setNotFoundHandler(notFoundHandler);
  void app.register(apiPlugin, { deps });
  return app;
}
