import { createBullBoard } from '@bull-board/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { redisUnavailable, type AuditInput, type HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { LoginLimiter, type AccountView, type Accounts, type Hooks } from '@hookline/store';
import type { HookControl } from '@hookline/suspension';
import { HookQueues, isRedisUnavailable } from '@hookline/redis';
import { setAdminSecurityHeaders } from './security-headers';
import { BASIC_CHALLENGE, isAdmin, type AdminCredentials } from './admin-auth';
import { refusalPage, renderAdminPage } from './admin-page';
import { BOARD_ACTION_ROUTES, BOARD_ACTIONS_SCRIPT_PATH, registerBoardActions } from './board-actions';
import { BoardRegistry } from './board-registry';
import { FastifyBoardAdapter } from './fastify-board-adapter';
import { searchHooks, UrlIndexWalk, type HookSearchDeps, type HookSearchQuery } from './hook-search';

export interface AdminDeps {
  readonly redis: Redis;
  /**
   * The board's own connection, a duplicate of `redis`, its errors logged as the process's other connections'
   * are (where Redis was looked for, a hint): the composition root's `watchedDuplicate`. Without it, a duplicate
   * whose errors are logged on the app's logger with the client's words alone.
   */
  readonly duplicateRedis?: () => Redis;
  readonly keys: RedisKeys;
  readonly hooks: Pick<Hooks, 'get' | 'list' | 'target' | 'findByUrl' | 'indexUrls'>;
  /** Found by e-mail address; each hook listed names its account. */
  readonly accounts: Pick<Accounts, 'get' | 'idByEmail'>;
  readonly control: Pick<HookControl, 'enable' | 'suspend'>;
  readonly admin: AdminCredentials;
  /** The admin area; Bull Board is at `${basePath}/queues`. */
  readonly basePath?: string;
  readonly maxQueues?: number;
  /** Served over https (HOOKLINE_PUBLIC_URL): HSTS too. */
  readonly https?: boolean;
  /** The audit log: pauses and resumes are recorded with the admin's name. */
  readonly audit?: { record(input: AuditInput): Promise<unknown> };
}

// The only changes an admin may make to hook queues on the board: pause (suspend) and resume (re-enable, held
// events delivered), served by hookline (board-actions.ts). Hook queues are read-only on Bull Board, so it offers
// nothing else; retry, promote, clean, empty, add, remove and concurrency would break never-twice and
// one-in-flight, so every other non-GET route of the board is refused here too, whatever Bull Board would do.
const ALLOWED_ROUTES: readonly string[] = BOARD_ACTION_ROUTES;
const SUSPENDED_LISTED = 50;

/**
 * Mounts the admin area on a Fastify app: a search page at `basePath` and Bull Board at `${basePath}/queues`,
 * both behind HTTP Basic admin credentials. Hook queues are registered on demand: `?account=acct_…[&name=…]`,
 * `?email=…`, `?url=…` or `?hook=hk_…` on the board's address, or any link to one queue.
 */
export async function mountAdmin(app: FastifyInstance, deps: AdminDeps): Promise<BoardRegistry> {
  const base = (deps.basePath ?? '/admin').replace(/\/$/, '');
  const boardPath = `${base}/queues`;
  const ALLOWED_CHANGES = new Set(ALLOWED_ROUTES.map((route) => `${boardPath}${route}`));
  const maxQueues = deps.maxQueues ?? 200;
  // Each BullMQ Queue listens on its connection: a connection of the board's own, sized for its queues.
  const connection = deps.duplicateRedis ? deps.duplicateRedis() : ownConnection(deps.redis, app);
  connection.setMaxListeners(maxQueues * 4 + 16);
  // While Redis cannot serve, every admin route answers 503 (as the API and the website do, by the same test),
  // not a 500 with ioredis' words.
  const unavailable = (error: Error, reply: FastifyReply): boolean => {
    if (!isRedisUnavailable(error, deps.redis)) return false;
    reply.log.warn({ err: { type: error.name, message: error.message } }, 'redis unavailable');
    const problem = redisUnavailable();
    void reply.code(problem.status).header('retry-after', '5').send(problem.toBody());
    return true;
  };
  const serverAdapter = new FastifyBoardAdapter(boardPath, {
    ownRoutes: BOARD_ACTION_ROUTES,
    pageScript: `${boardPath}${BOARD_ACTIONS_SCRIPT_PATH}`,
    onError: unavailable,
  });
  const board = createBullBoard({
    queues: [],
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'hookline',
        miscLinks: [{ text: 'Find hooks', url: base }],
        hideDocsLink: true,
      },
    },
  });
  const limiter = new LoginLimiter(deps.redis, deps.keys);
  const registry = new BoardRegistry({
    board,
    hooks: deps.hooks,
    hookQueues: new HookQueues(connection, deps.keys),
    control: deps.control,
    actor: `admin:${deps.admin.user}`,
    maxQueues,
  });
  app.addHook('onClose', async () => {
    await registry.close();
    connection.disconnect();
  });
  // Hooks made before the search by URL existed are added to it in the background (three reads when there are
  // none), once Redis answers: the HTTP tier's client fails commands sent while it connects.
  const urlIndex = new UrlIndexWalk(deps.hooks, app.log);
  if (deps.redis.status === 'ready') urlIndex.start();
  else deps.redis.once('ready', () => urlIndex.start());
  const search: HookSearchDeps = { accounts: deps.accounts, hooks: deps.hooks, registry, urlIndex };

  await app.register(
    async (scope) => {
      scope.addHook('onSend', async (_request, reply) => setAdminSecurityHeaders(reply, deps.https ?? false));
      scope.setErrorHandler(async (error: Error, _request, reply) => {
        // Anything else goes to the app's own handler.
        if (!unavailable(error, reply)) throw error;
        return reply;
      });
      scope.addHook('onRequest', async (request, reply) => {
        // Basic credentials come with every request, so every pair is counted before it is checked, per
        // address (a right one is given back); a request without any (the browser's first, before it
        // prompts) counts nothing.
        const credentials = request.headers.authorization;
        const attempt = credentials ? await limiter.attempt(undefined, request.ip) : undefined;
        const gate = attempt ?? (await limiter.check(undefined, request.ip));
        if (!gate.allowed)
          return refuse(
            request,
            reply.code(429).header('retry-after', String(gate.retryAfterSeconds)),
            'RATE_LIMITED',
            `Too many failed admin sign-ins from this address; retry in ${gate.retryAfterSeconds} s`,
            `Too many failed admin sign-ins from this address: try again in ${Math.ceil(gate.retryAfterSeconds / 60)} minutes.`,
          );
        if (isAdmin(credentials, deps.admin)) {
          if (attempt?.allowed) await attempt.succeeded();
          return;
        }
        return refuse(
          request,
          reply.code(401).header('www-authenticate', BASIC_CHALLENGE),
          'UNAUTHORIZED',
          'Admin credentials required',
          'Sign in with the admin user and password (HOOKLINE_ADMIN_USER and HOOKLINE_ADMIN_PASSWORD): reload this page to be asked again.',
        );
      });
      scope.addHook('preHandler', async (request, reply) => {
        // Judged by the route the router matched, never the raw URL: `/admin/%71ueues/…` reaches the same
        // handler as `/admin/queues/…`, and a check of the raw text let retry, concurrency and empty through.
        if (!['GET', 'HEAD'].includes(request.method)) {
          if (!ALLOWED_CHANGES.has(request.routeOptions.url ?? ''))
            return reply.code(403).send({
              error: { code: 'FORBIDDEN', message: 'hookline does not allow this action on hook queues' },
            });
        }
        // The search page makes its search itself, once.
        if (![base, `${base}/`].includes(request.routeOptions.url ?? ''))
          await registerFor(request, registry, deps.keys, search);
        // The board's own address (the README's way in) opens on the hooks that need an admin: the
        // suspended ones, which resume from here. Others are found from the search page or by link.
        if (request.routeOptions.url === boardPath)
          for (const hook of await suspendedHooks(deps)) await registry.registerHook(hook.id);
      });
      scope.get('/', async (request, reply) => adminPage(request, reply, deps, search, boardPath));
      const audit = deps.audit && {
        record: (i: AuditInput) => deps.audit!.record(i),
        admin: deps.admin.user,
      };
      await scope.register(
        async (board) =>
          registerBoardActions(board, { registry, keys: deps.keys, ...(audit ? { audit } : {}) }),
        { prefix: '/queues' },
      );
      await scope.register(serverAdapter.plugin(), { prefix: '/queues' });
    },
    { prefix: base },
  );
  return registry;
}

/** Registers the queues a request asks for, so the board can show them. */
async function registerFor(
  request: FastifyRequest,
  registry: BoardRegistry,
  keys: RedisKeys,
  search: HookSearchDeps,
): Promise<void> {
  const query = (request.query ?? {}) as Record<string, string | undefined>;
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  await searchHooks(searchQuery(query), search);
  if (query.hook) await registry.registerHook(query.hook.trim());
  for (const queueName of [params.queueName, query.activeQueue]) {
    const hookId = queueName ? keys.hookIdFromQueueName(decodeURIComponent(queueName)) : undefined;
    if (hookId) await registry.registerHook(hookId);
  }
}

/**
 * A refused request: JSON for Bull Board's own calls and scripts, a page for a browser that asked for one (the
 * browser shows this body when its sign-in prompt is cancelled, or after too many wrong passwords).
 */
function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  code: 'RATE_LIMITED' | 'UNAUTHORIZED',
  message: string,
  sentence: string,
): FastifyReply {
  if (!(request.headers.accept ?? '').includes('text/html')) return reply.send({ error: { code, message } });
  return reply.type('text/html; charset=utf-8').send(refusalPage(sentence));
}

async function adminPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AdminDeps,
  search: HookSearchDeps,
  boardPath: string,
): Promise<FastifyReply> {
  const query = searchQuery((request.query ?? {}) as Record<string, unknown>);
  const result = await searchHooks(query, search);
  const suspended = await suspendedHooks(deps);
  const ids = new Set([...(result?.found ?? []), ...suspended].map((hook) => hook.account_id));
  const accounts = new Map<string, AccountView>();
  for (const account of await Promise.all([...ids].map((id) => deps.accounts.get(id))))
    if (account) accounts.set(account.id, account);
  const html = renderAdminPage({ boardPath, query, suspended, accounts, ...result });
  return reply.type('text/html; charset=utf-8').send(html);
}

/** The search fields of a query string; a field given twice (an array) counts as not given. */
function searchQuery(query: Record<string, unknown>): HookSearchQuery {
  const field = (name: keyof HookSearchQuery) =>
    typeof query[name] === 'string' ? { [name]: query[name] as string } : {};
  return { ...field('account'), ...field('name'), ...field('email'), ...field('url') };
}

async function suspendedHooks(deps: AdminDeps): Promise<HookView[]> {
  const [, ids] = await deps.redis.sscan(deps.keys.suspendedHooks(), '0', 'COUNT', SUSPENDED_LISTED);
  const views: HookView[] = [];
  for (const hookId of ids.slice(0, SUSPENDED_LISTED)) {
    const target = await deps.hooks.target(hookId);
    const view = target && (await deps.hooks.get(target.accountId, hookId));
    if (view?.state === 'suspended') views.push(view);
  }
  return views;
}

/** A duplicate of `redis` for a board mounted without `duplicateRedis` (its tests): errors logged once each. */
function ownConnection(redis: Redis, app: FastifyInstance): Redis {
  const connection = redis.duplicate();
  // ioredis repeats an error on every reconnect attempt, and prints it when nobody listens: logged once.
  let lastError = '';
  connection.on('error', (error: Error) => {
    if (error.message !== lastError) app.log.warn({ err: error }, 'admin board: redis connection error');
    lastError = error.message;
  });
  connection.on('ready', () => (lastError = ''));
  return connection;
}
