import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import {
  ERROR_CATALOGUE,
  historyUnavailable,
  HooklineError,
  redisUnavailable,
  validationError,
  type ErrorCode,
} from '@hookline/core';
import { isHistoryUnreachable } from '@hookline/history';
import { isRedisUnavailable, REPLICA_ACKS_MISSING } from '@hookline/redis';
import { payloadTooLarge } from './json-body';
import { lateRedisAnswer } from './late-redis';
import { WWW_AUTHENTICATE } from './operator-auth';

// Fastify's own client errors, in the catalogue's words.
const FASTIFY_ERRORS: Readonly<Record<string, () => HooklineError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new HooklineError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new HooklineError('INVALID_JSON', 'Request body is empty'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new HooklineError('INVALID_JSON', 'Content-Length does not match the body'),
  // A path Fastify cannot decode (a % not starting a percent-encoded UTF-8 character), met before any route:
  // the server's frameworkErrors option hands it here (see buildApp).
  FST_ERR_BAD_URL: () =>
    validationError([
      {
        field: 'path',
        message:
          'is not a valid address: a % must begin a percent-encoded UTF-8 character, such as %20 or %C3%A9',
      },
    ]),
};

/** Turns anything thrown while serving a request into an entry of the one error catalogue. */
export function toCatalogued(
  error: unknown,
  redis: Pick<Redis, 'status'>,
  request: Pick<FastifyRequest, 'id' | 'method'>,
): HooklineError {
  const { id: requestId, method } = request;
  if (error instanceof HooklineError) return error;
  const fastify = error as Partial<FastifyError>;
  const known = fastify.code ? FASTIFY_ERRORS[fastify.code] : undefined;
  if (known) return known();
  if (
    typeof fastify.code === 'string' &&
    fastify.code.startsWith('FST_') &&
    isClientStatus(fastify.statusCode)
  )
    return new HooklineError(codeForStatus(fastify.statusCode), fastify.message ?? 'Bad request');
  // Before Redis's test: a socket refused by PostgreSQL would read as Redis being down.
  if (isHistoryUnreachable(error)) return historyUnavailable();
  // Redis answered, but fewer replicas than required took the write: said so, or an operator would look for an
  // outage that /readyz does not show.
  if (error instanceof Error && error.name === REPLICA_ACKS_MISSING)
    return new HooklineError(
      'REDIS_UNAVAILABLE',
      `Redis did not confirm the write on enough replicas in time (${error.message}); it may have been kept: ` +
        'retry with the same request',
    );
  // Past a command's deadline outside a route of the table (the route runner words it for its route).
  const late = lateRedisAnswer(error, redis, { method });
  if (late) return late;
  if (isRedisUnavailable(error, redis)) return redisUnavailable();
  return new HooklineError('INTERNAL', `Internal error; quote request id ${requestId} when reporting it`);
}

const isClientStatus = (status: number | undefined): status is number =>
  status !== undefined && status >= 400 && status < 500;

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(ERROR_CATALOGUE).find(([, s]) => s === status);
  return (entry?.[0] as ErrorCode | undefined) ?? 'VALIDATION_FAILED';
}

// ioredis errors carry the failed command with its arguments (which may hold sealed credentials or password
// hashes): only the name, message, code and stack are logged.
function loggable(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(code !== undefined ? { code } : {}),
    stack: error.stack,
  };
}

export function errorHandler(redis: Pick<Redis, 'status'>) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    // The client hung up before its request had arrived whole (or was cut at the request deadline, which Node
    // answered with its 408): its socket's ECONNRESET is the client's, not Redis's, and nobody reads an answer.
    if (request.raw.readableAborted) {
      request.log.info({ err: loggable(error) }, 'client closed the connection before its request arrived');
      return reply.code(400).send();
    }
    const problem = toCatalogued(error, redis, request);
    if (problem.code === 'INTERNAL') request.log.error({ err: loggable(error) }, 'request failed');
    else if (problem.code === 'REDIS_UNAVAILABLE')
      request.log.warn({ err: loggable(error) }, 'redis unavailable');
    else if (problem.code === 'HISTORY_UNAVAILABLE')
      request.log.warn({ err: loggable(error) }, 'history database unavailable');
    if (problem.code === 'UNAUTHORIZED') void reply.header('www-authenticate', WWW_AUTHENTICATE);
    if (problem.code === 'REDIS_UNAVAILABLE' || problem.code === 'HISTORY_UNAVAILABLE')
      void reply.header('retry-after', '5');
    return reply.code(problem.status).type('application/json; charset=utf-8').send(problem.toBody());
  };
}

// The path as the answer quotes it: enough to recognise, not the whole of one up to the header limit (16 KiB).
const QUOTED_PATH_MAX = 200;

export function quotedPath(request: Pick<FastifyRequest, 'url'>): string {
  const path = request.url.split('?')[0] ?? '';
  return path.length > QUOTED_PATH_MAX ? `${path.slice(0, QUOTED_PATH_MAX)}…` : path;
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = new HooklineError('NOT_FOUND', `No route ${request.method} ${quotedPath(request)}`);
  return reply.code(problem.status).type('application/json; charset=utf-8').send(problem.toBody());
}
