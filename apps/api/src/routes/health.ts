import { z } from 'zod';
import { READY_WITHIN_MS, readinessOf } from '@hookline/core';
import { answersWithin, type EgressFleetWait } from '@hookline/redis';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const status = z.object({ status: z.literal('ok') });
const ready = z.object({
  status: z.literal('ok'),
  checks: z.array(
    z.object({
      name: z
        .string()
        .describe(
          'what was checked: `redis`, `postgres` (the delivery history), `history_writer` (its lag), ' +
            '`egress_proxy` (with HOOKLINE_EGRESS_PROXY: whether it accepts connections and lets deliveries through)',
        ),
      status: z
        .enum(['ok', 'lagging', 'refused', 'unreachable'])
        .describe(
          '`lagging`, `refused` and `unreachable` (the egress proxy): reported, not a reason to take this ' +
            'instance out of service (events are still accepted; deliveries wait for the proxy)',
        ),
      detail: z.string(),
    }),
  ),
});
/** Past this, the history writer's lag is reported as `lagging` (HooklineHistoryLagging alerts at 60 s too). */
const LAG_REPORTED_MS = 60_000;

/**
 * What the HTTP tier needs to take requests, each checked within a bound: Redis (events, hooks, everything
 * live) and PostgreSQL (the delivery history). Not ready: a 503 whose `details` name each check that failed
 * and why (`{field: "redis", message: "not connected (reconnecting)"}`). The history writer's lag is the
 * monitor's to report (a metric and an alert), not a reason to stop taking events.
 */
async function readiness(deps: ApiDeps) {
  const [redis, postgres] = await Promise.all([
    answersWithin(deps.redis, READY_WITHIN_MS),
    deps.historyAnswers(READY_WITHIN_MS),
  ]);
  const answered = readinessOf({ redis, postgres });
  if (!answered.ready) throw answered.problem;
  // Said, never failed on: every HTTP tier instance would be taken out of service at once for a writer that
  // is behind (the records wait in Redis, nothing is lost), and producers could not publish.
  // Bounded like the checks above: on a Cluster the lag's key may be on a shard in a failover, whose reads
  // the client retries for up to 12 s.
  const [lagMs, proxy, waiting] = await Promise.all([
    within(READY_WITHIN_MS, deps.historyLagMs()),
    deps.egressProxy?.answers(READY_WITHIN_MS),
    deps.egressProxy?.waiting(),
  ]);
  return [
    ...answered.checks,
    lagMs === undefined
      ? {
          name: 'history_writer',
          status: 'lagging' as const,
          detail: `its lag could not be read within ${READY_WITHIN_MS} ms`,
        }
      : {
          name: 'history_writer',
          status: lagMs > LAG_REPORTED_MS ? ('lagging' as const) : ('ok' as const),
          detail:
            lagMs === 0
              ? 'no attempt record waiting'
              : `the oldest attempt record not yet in PostgreSQL has waited ${Math.round(lagMs / 1000)} s`,
        },
    // Said, never failed on, for the same reason: accepting events does not need the proxy, and they wait for
    // it in their queues. The workers' view is hookline_egress_proxy_failures_total.
    ...(deps.egressProxy && proxy ? [egressProxyCheck(deps.egressProxy.shown, proxy, waiting)] : []),
  ];
}

/** What `promise` gives within `ms`, or undefined (it failed, or is still waiting). */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A connection is not enough: a proxy that takes it and then refuses every tunnel (wrong credentials, access
 * rules) keeps every delivery back. What the workers met says so (the latest kept-back try, by host and port).
 */
function egressProxyCheck(
  shown: string,
  proxy: { ok: true; ms: number } | { ok: false; reason: string },
  waiting: EgressFleetWait | undefined,
) {
  if (!proxy.ok)
    return {
      name: 'egress_proxy',
      status: 'unreachable' as const,
      detail: `${shown} cannot be reached (${proxy.reason}); deliveries wait for it`,
    };
  if (waiting) {
    const hooks = `${waiting.hooks} ${waiting.hooks === 1 ? 'hook waits' : 'hooks wait'}`;
    // A proxy that could not be reached at the workers' last try and answers now has come back: its hooks go
    // at their next try. One that answers and refused the last try keeps deliveries back.
    const detail =
      waiting.cause === 'unreachable'
        ? `${shown} accepts connections again; ${hooks} for the next try (at most 30 s away), after the last ` +
          `could not reach it: ${waiting.reason}`
        : `${shown} accepts connections but keeps deliveries back: ${hooks} on it; the last try: ${waiting.reason}`;
    return { name: 'egress_proxy', status: waiting.cause, detail };
  }
  return {
    name: 'egress_proxy',
    status: 'ok' as const,
    detail: `${shown} accepted a connection in ${proxy.ms} ms`,
  };
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
      summary: 'Readiness: Redis and PostgreSQL answer (what is not ready is named in the error details)',
      tag: 'operations',
      auth: false,
      scope: 'none',
      otherErrors: ['REDIS_UNAVAILABLE', 'HISTORY_UNAVAILABLE'],
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
