import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { findsPrimaryThroughSentinel, SENTINEL_REQUEST_WAIT_MS, untilReady } from '@hookline/redis';

// Probes answer at once, whatever Redis is doing: a load balancer asks them with a short timeout of its own.
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * An onRequest hook for a client through Redis Sentinel, or undefined for any other client. A request that
 * arrives while the client has lost its primary (a failover: the sentinels have not named the promoted replica
 * yet) waits for the client to be ready again, for up to `waitMs`, then runs as usual: accepted late, or, if
 * the client is still not connected, answered 503 by the error handler as before. Nothing is sent to Redis
 * before the wait ends, so a request never half-runs on the old primary and again on the new one. (A Redis
 * Cluster client waits inside its own retries instead, and a single Redis without Sentinel answers 503 at once.)
 */
export function waitForPrimary(
  redis: Redis,
  waitMs = SENTINEL_REQUEST_WAIT_MS,
): ((request: FastifyRequest) => Promise<void>) | undefined {
  if (!findsPrimaryThroughSentinel(redis)) return undefined;
  return async (request) => {
    if (redis.status === 'ready' || PROBES.has(request.url.split('?')[0]!)) return;
    await untilReady(redis, waitMs);
  };
}
