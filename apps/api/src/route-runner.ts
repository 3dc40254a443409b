import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ID_PATTERN,
  notFound,
  validationError,
  zodProblems,
  type FieldProblem,
  type HookView,
} from '@hookline/core';
import type { AccountView } from '@hookline/store';
import type { ApiDeps } from './deps';
import { refuseUnhonouredKey, requestKeyOf } from './idempotency-key';
import { lateRedisAnswer } from './late-redis';
import { plainNumbers } from './json-body';
import { badlyEscapedQuery } from './query-escapes';
import { pathParams, type Route, type Scope } from './route';

interface ResolvedScope {
  readonly account?: AccountView;
  readonly hook?: HookView;
}

const isId = (prefix: 'acct' | 'hk', value: string | undefined): value is string =>
  value !== undefined && value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);

/**
 * The account (and hook) named in the path, or a 404. A hook of another account is "not found" like a
 * hook that never existed: answers never tell which ids exist elsewhere.
 */
async function resolveScope(
  scope: Scope,
  params: Readonly<Record<string, string | undefined>>,
  store: ApiDeps['store'],
): Promise<ResolvedScope> {
  if (scope === 'none') return {};
  const account = isId('acct', params.acct) ? await store.accounts.get(params.acct) : undefined;
  if (!account) throw notFound('Account');
  if (scope === 'account') return { account };
  const hook = isId('hk', params.hook) ? await store.hooks.get(account.id, params.hook) : undefined;
  if (!hook) throw notFound('Hook');
  return { account, hook };
}

// reportInput lets zodProblems tell a missing field ("is required") from one of the wrong type; the input is
// never copied into a message.
function parseOrReject<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw validationError(zodProblems(parsed.error));
  return parsed.data;
}

/**
 * A route that takes no input in its body accepts none, or `{}`: anything else was meant for something and is
 * refused, as an unknown field is where a route has a body.
 */
function refuseAnyBody(body: unknown): undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length > 0)
      throw validationError(keys.map((field) => ({ field, message: 'is not a known field' })));
    return undefined;
  }
  throw validationError([{ field: '(body)', message: 'must be empty: this request takes no input' }]);
}

/**
 * A route that takes no query accepts no parameter: one was meant for something (a typo of another route's
 * `limit`, a filter this route does not have), and is refused as an unknown one is where a route has a query
 * (its schema is strict), so every route answers an unknown parameter alike.
 */
function refuseAnyQuery(query: unknown): undefined {
  const names = typeof query === 'object' && query !== null ? Object.keys(query) : [];
  if (names.length > 0)
    throw validationError(names.map((field) => ({ field, message: 'is not a known field' })));
  return undefined;
}

/**
 * No parameter is a list: one given twice (`limit=5&limit=6`) arrives as an array, and was refused in words
 * about its value ("must be a whole number") when each value was one. An unknown one stays unknown. A value with
 * a bad percent escape is refused as such, whatever the schema would have made of the text as given.
 */
function parseQuery<S extends z.ZodType>(
  schema: S,
  query: unknown,
  badlyEscaped: readonly FieldProblem[],
): z.output<S> {
  const parsed = schema.safeParse(query, { reportInput: true });
  if (parsed.success && badlyEscaped.length === 0) return parsed.data;
  const given = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const problems = parsed.success
    ? []
    : zodProblems(parsed.error).map((problem) =>
        Array.isArray(given[problem.field]) && problem.message !== UNKNOWN
          ? { field: problem.field, message: 'must be given once' }
          : problem,
      );
  const unknown = new Set(problems.filter((p) => p.message === UNKNOWN).map((p) => p.field));
  const escapes = badlyEscaped.filter((p) => !unknown.has(p.field));
  const escaped = new Set(escapes.map((p) => p.field));
  throw validationError([...problems.filter((p) => !escaped.has(p.field)), ...escapes]);
}

const UNKNOWN = 'is not a known field';

/**
 * Runs one route: scope first (404 before anything about the input is revealed), then query and body
 * validation (400 naming every bad field, before any side effect), then an idempotent route's
 * Idempotency-Key, then the handler. The answer is shaped by
 * the response schema, so fields the route did not declare (credentials above all) never leave.
 */
export function routeHandler(route: Route, deps: ApiDeps) {
  const run = runRoute(route, deps);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      return await run(request, reply);
    } catch (error) {
      // A Redis command past its deadline: the answer says what the caller does next, as this route knows.
      throw lateRedisAnswer(error, deps.redis, route) ?? error;
    }
  };
}

function runRoute(route: Route, deps: ApiDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const params = request.params as Record<string, string | undefined>;
    const scope = await resolveScope(route.scope, params, deps.store);
    const query = route.query
      ? parseQuery(route.query, request.query, badlyEscapedQuery(request.url))
      : refuseAnyQuery(request.query);
    // No body at all (none sent, or an empty one) is `{}` where every field is optional; elsewhere it stays
    // absent and is refused as "(body) is required".
    const given = request.body === undefined && route.bodyOptional ? {} : request.body;
    const body = route.body
      ? (route.acceptBody?.(given) ?? parseOrReject(route.body, plainNumbers(given, route.keepNumberText)))
      : refuseAnyBody(request.body);
    if (!route.idempotent && route.method === 'POST') refuseUnhonouredKey(request, route.operationId);
    const requestKey = route.idempotent
      ? requestKeyOf(
          request,
          route.operationId,
          pathParams(route.path).map((name) => params[name] ?? ''),
          body,
        )
      : undefined;
    const result = await route.handle({ ...scope, query, body, request, requestKey });
    const spec = route.responses[result.status];
    if (!spec) throw new Error(`${route.operationId} answered ${result.status}, which it does not declare`);
    void reply.code(result.status);
    if (spec.contentType) void reply.type(spec.contentType);
    if (!spec.schema) return reply.send();
    return reply.send(spec.schema.parse(result.body));
  };
}
