import fastifyFormbody from '@fastify/formbody';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { HooklineError, usableReturnUrl } from '@hookline/core';
import { isRedisUnavailable } from '@hookline/redis';
import { registerAssets, registerBrandAssets } from './assets/assets';
import { framedLoginPage } from './pages/login-page';
import type { WebDeps } from './deps';
import {
  BAD_ADDRESS,
  CSRF_REFUSED,
  errorPage,
  NOT_FOUND,
  SERVER_ERROR,
  UNAVAILABLE,
} from './pages/error-page';
import { accountRoutes } from './routes/account-routes';
import { authRoutes, isFramed } from './routes/auth-routes';
import { hookPageRoutes } from './routes/hook-page-routes';
import { hookRoutes } from './routes/hook-routes';
import { hooksListRoutes } from './routes/hooks-list-routes';
import { historyRoutes } from './routes/history-routes';
import { portalRoutes } from './routes/portal-routes';
import { refuseReadOnly } from './read-only-guard';
import { setSecurityHeaders, type PagePolicy } from './security-headers';
import { verifyCsrf } from './session/csrf';
import { isHttps, WebContext } from './web-context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const frameAncestorsOf = (deps: WebDeps) => deps.config.HOOKLINE_FRAME_ANCESTORS ?? [];

/** The operator's origins may frame every page; a sign-in link's session may sign out to its return page. */
async function pagePolicy(ctx: WebContext, request: FastifyRequest): Promise<PagePolicy> {
  const frameAncestors = frameAncestorsOf(ctx.deps);
  const returnUrl = usableReturnUrl(
    (await ctx.sessions.current(request).catch(() => undefined))?.data.portal?.returnUrl,
  );
  return { frameAncestors, ...(returnUrl ? { formTargets: [new URL(returnUrl).origin] } : {}) };
}

function errorHandler(ctx: WebContext) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HooklineError && error.code === 'NOT_FOUND') return ctx.notFound(request, reply);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return ctx.page(
        reply,
        errorPage(
          undefined,
          { status, title: 'This request could not be handled', message: error.message },
          ctx.brand,
        ),
        status,
      );
    // As the API decides it: a Cluster client stays ready while a shard is down or replicas do not answer.
    if (isRedisUnavailable(error, ctx.deps.redis)) {
      request.log.warn({ err: error }, 'redis unavailable');
      return ctx.page(reply.header('retry-after', '5'), errorPage(undefined, UNAVAILABLE, ctx.brand), 503);
    }
    request.log.error({ err: error }, 'web request failed');
    return ctx.page(reply, errorPage(undefined, SERVER_ERROR(request.id), ctx.brand), 500);
  };
}

/**
 * The customer website as a Fastify plugin: mount it at `/` beside the API (it owns `/`, `/login`, `/logout`,
 * `/signed-out`, `/hooks/…`, `/activity`, `/account`, `/assets/…`). Its form parser stays inside the plugin.
 */
export function webPlugin(deps: WebDeps): FastifyPluginAsync {
  return async (app) => {
    const ctx = new WebContext(deps);
    await app.register(fastifyFormbody);
    app.addHook('onSend', async (request, reply) =>
      setSecurityHeaders(reply, isHttps(deps.config), await pagePolicy(ctx, request)),
    );
    app.addHook('preHandler', async (request, reply) => {
      if (SAFE_METHODS.has(request.method)) return;
      const verdict = verifyCsrf(request, await ctx.sessions.current(request));
      if (verdict.ok) return;
      request.log.warn(
        { reason: verdict.reason, url: request.url },
        'refused a request without a valid CSRF token',
      );
      // A password sign-in inside a frame never holds (its cookie is not sent there): say so, not "try again".
      if (request.url.startsWith('/login') && isFramed(request))
        return ctx.page(reply, framedLoginPage(ctx.brand), 403);
      const who = await ctx.signedIn(request);
      const viewer = who
        ? { account: who.account, csrf: who.session.data.csrf, brand: ctx.brand }
        : undefined;
      return ctx.page(reply, errorPage(viewer, CSRF_REFUSED, ctx.brand), 403);
    });
    app.addHook('preHandler', async (request, reply) =>
      refuseReadOnly(ctx, request, reply, !SAFE_METHODS.has(request.method)),
    );
    app.setErrorHandler(errorHandler(ctx));
    registerAssets(app);
    registerBrandAssets(app, ctx.brand);
    authRoutes(app, ctx);
    hooksListRoutes(app, ctx);
    hookRoutes(app, ctx);
    hookPageRoutes(app, ctx);
    historyRoutes(app, ctx);
    accountRoutes(app, ctx);
    portalRoutes(app, ctx);
  };
}

/**
 * The host app's frameworkErrors option (errors Fastify meets before any route, such as a path it cannot
 * decode): a page for browsers, `api` (the API's error handler, its error shape) for everyone else.
 */
export function webFrameworkErrors(
  deps: WebDeps,
  api: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  const ctx = new WebContext(deps);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): unknown => {
    if (!(request.headers.accept ?? '').includes('text/html')) return api(error, request, reply);
    setSecurityHeaders(reply, isHttps(deps.config), { frameAncestors: frameAncestorsOf(deps) });
    // Fastify's other framework error (an async route constraint that threw) is a bug of ours: a 500 page.
    if (error.code !== 'FST_ERR_BAD_URL') request.log.error({ err: error }, 'web request failed');
    const page = error.code === 'FST_ERR_BAD_URL' ? BAD_ADDRESS : SERVER_ERROR(request.id);
    return ctx.page(reply, errorPage(undefined, page, ctx.brand), page.status);
  };
}

/** A 404 handler for the host app: a page for browsers, the API's error shape for everyone else. */
export function webNotFound(deps: WebDeps) {
  const ctx = new WebContext(deps);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // Outside the plugins, so neither the website's nor the API's hooks set it: no-store like every answer of both.
    void reply.header('cache-control', 'no-store');
    if (!(request.headers.accept ?? '').includes('text/html'))
      return reply.code(404).send(new HooklineError('NOT_FOUND', 'Route not found').toBody());
    setSecurityHeaders(reply, isHttps(deps.config), { frameAncestors: frameAncestorsOf(deps) });
    return ctx.page(reply, errorPage(undefined, NOT_FOUND, ctx.brand), 404);
  };
}

/**
 * The website alone, built without listening (tests listen on port 0; main.ts on PORT). `onRoute` sees every
 * route as it is added: tests drive suites from the route table (every changing route of a read-only session).
 */
export async function buildWebApp(
  deps: WebDeps,
  onRoute?: (route: { readonly method: string | string[]; readonly url: string }) => void,
): Promise<FastifyInstance> {
  // pino's Logger and Fastify's base logger type differ only in generics; the instance is the same.
  const app = Fastify({ loggerInstance: deps.logger }) as unknown as FastifyInstance;
  if (onRoute) app.addHook('onRoute', onRoute);
  await app.register(webPlugin(deps));
  app.setNotFoundHandler(webNotFound(deps));
  return app;
}
