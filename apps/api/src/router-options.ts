import type { FastifyServerOptions } from 'fastify';

/**
 * The longest path parameter the router matches. find-my-way's default, 100, made a route not match a longer
 * id at all: a 200-character hook id got the catch-all's "No route GET …" where any other unknown id gets the
 * route's own "Hook not found". Node refuses request headers over 16 KiB (431), the request line included, so
 * no parameter reaching the router is longer than this: the tier's header limit stays the one bound, and the
 * routes check every id's form themselves. The router has no regular-expression parameters, so a long one
 * costs only a linear scan.
 */
export const MAX_PATH_PARAM_LENGTH = 16 * 1024;

/** Fastify options for every server of the HTTP tier: the router's limits above. */
export function routerLimits(): Pick<FastifyServerOptions, 'routerOptions'> {
  return { routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH } };
}
