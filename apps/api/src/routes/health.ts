import { z } from 'zod';
import { HooklineError } from '@hookline/core';
import { answersWithin } from '@hookline/redis';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const status = z.object({ status: z.literal('ok') });
const ready = z.object({
  status: z.literal('ok'),
  checks: z.array(
    z.object({
      name: z.string().describe('what was checked: `redis` (later also PostgreSQL and the history writer)'),
      status: z.literal('ok'),
      detail: z.string(),
    }),
  ),
});
const READY_TIMEOUT_MS = 2000;

/**
 * What the HTTP tier needs to take requests, each checked within a bound. Only Redis today; PostgreSQL and
 * the history writer's lag join here when the delivery history exists. Not ready: a 503 whose `details`
 * name each check that failed and why (`{field: "redis", message: "not connected (reconnecting)"}`).
 */
async function readiness(deps: ApiDeps) {
  const redis = await answersWithin(deps.redis, READY_TIMEOUT_MS);
  if (!redis.ok)
    throw new HooklineError('REDIS_UNAVAILABLE', 'Not ready: Redis does not answer', [
      { field: 'redis', message: redis.reason },
    ]);
  return [{ name: 'redis', status: 'ok' as const, detail: `answered PING in ${redis.ms} ms` }];
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
      summary: 'Readiness: Redis answers PING (what is not ready is named in the error details)',
      tag: 'operations',
      auth: false,
      scope: 'none',
      otherErrors: ['REDIS_UNAVAILABLE'],
      responses: { 200: { description: 'Ready to take requests, and what was checked', schema: ready } },
    })(async () => ({ status: 200, body: { status: 'ok', checks: await readiness(deps) } })),
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
