import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { HooklineError } from '@hookline/core';
import { quotedPath } from './error-handler';
import { fastifyPath, type Route } from './route';

// The order the Allow header lists methods in, whatever order the table declares them.
const ORDER: readonly string[] = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] satisfies (
  Route['method'] | 'HEAD'
)[];

/** The methods each path of the table serves: HEAD beside GET, as Fastify answers HEAD for every GET route. */
export function methodsByPath(routes: readonly Route[]): Map<string, { methods: string[]; auth: boolean }> {
  const paths = new Map<string, { methods: string[]; auth: boolean }>();
  for (const route of routes) {
    const entry = paths.get(route.path) ?? { methods: [], auth: false };
    const served = new Set([...entry.methods, route.method, ...(route.method === 'GET' ? ['HEAD'] : [])]);
    paths.set(route.path, {
      methods: ORDER.filter((method) => served.has(method)),
      auth: entry.auth || route.auth,
    });
  }
  return paths;
}

/**
 * A route per path of the table taking every other method Fastify knows, answering 405 with `Allow`. They go
 * through the router the real routes go through, so a path matches here exactly when it would match there (ids
 * of any form, escapes decoded alike); this holds while no two paths of the table can match one address, which
 * method-not-allowed.test.ts checks. The answer is given in onRequest, after the key where the path needs one
 * (as for any /v1 path: without the key, which paths exist is not told), and before a body is read: whatever
 * was sent, the method is what is wrong.
 */
export function methodNotAllowedRoutes(
  routes: readonly Route[],
  supportedMethods: readonly string[],
  operatorOnly: (request: FastifyRequest) => Promise<void>,
): RouteOptions[] {
  return [...methodsByPath(routes)].flatMap(([path, { methods, auth }]) => {
    const others = supportedMethods.filter((method) => !methods.includes(method));
    if (others.length === 0) return [];
    const refuse = refusal(methods);
    return [
      {
        method: others,
        url: fastifyPath(path),
        onRequest: auth ? [operatorOnly, refuse] : [refuse],
        // Never reached: onRequest has answered.
        handler: refuse,
      },
    ];
  });
}

function refusal(methods: readonly string[]) {
  const allow = methods.join(', ');
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    void reply.header('allow', allow);
    throw new HooklineError(
      'METHOD_NOT_ALLOWED',
      `Method ${request.method} is not served at ${quotedPath(request)}; it serves ${allow}`,
    );
  };
}
