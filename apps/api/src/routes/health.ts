import { z } from 'zod';
import { HooklineError } from '@hookline/core';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const status = z.object({ status: z.literal('ok') });
const READY_TIMEOUT_MS = 2000;

// A PING that neither fails nor answers (a stalled server) must still end the probe.
async function pingWithin(redis: ApiDeps['redis'], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([redis.ping().then((pong) => pong === 'PONG'), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'health',
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process is running',
      tag: 'operations',
      auth: false,
      scope: 'none',
      responses: { 200: { description: 'Running', schema: status } },
    })(async () => ({ status: 200, body: { status: 'ok' } })),
    defineRoute({
      operationId: 'ready',
      method: 'GET',
      path: '/readyz',
      summary: 'Readiness: Redis answers PING',
      tag: 'operations',
      auth: false,
      scope: 'none',
      otherErrors: ['REDIS_UNAVAILABLE'],
      responses: { 200: { description: 'Ready to take requests', schema: status } },
    })(async () => {
      if (!(await pingWithin(deps.redis, READY_TIMEOUT_MS)))
        throw new HooklineError('REDIS_UNAVAILABLE', 'Redis does not answer');
      return { status: 200, body: { status: 'ok' } };
    }),
    defineRoute({
      operationId: 'metrics',
      method: 'GET',
      path: '/metrics',
      summary: 'Prometheus metrics',
      tag: 'operations',
      auth: false,
      scope: 'none',
      responses: {
        200: {
          description: 'Prometheus text exposition',
          schema: z.string(),
          contentType: deps.metrics.registry.contentType,
        },
      },
    })(async () => ({ status: 200, body: await deps.metrics.registry.metrics() })),
  ];
}
