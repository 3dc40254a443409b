import { HooklineError } from '@hookline/core';
import { commandTimeoutOf, isCommandTimedOut } from '@hookline/redis';

/** What a route's 503 tells the caller to do after Redis did not answer in time (see lateRedisAnswer). */
export interface LateRedisAdvice {
  readonly method: string;
  /** The route's own advice (a publish: send it again with the same id); else the method's. */
  readonly retryAfterLateRedis?: string | undefined;
  /** The route honours Idempotency-Key: sent again with the same key, it takes effect once. */
  readonly idempotent?: boolean;
}

/**
 * The 503 for a request one of whose Redis commands missed its deadline (a Redis that stopped answering
 * without closing its connections: @hookline/redis request-deadline.ts), or undefined for any other error.
 * Unlike Redis being unreachable, the command was sent and may still run when Redis answers again, so a
 * request that changes something may still take effect: the answer says so, and what to do before retrying.
 */
export function lateRedisAnswer(
  error: unknown,
  redis: object,
  route: LateRedisAdvice,
): HooklineError | undefined {
  if (!isCommandTimedOut(error)) return undefined;
  const ms = commandTimeoutOf(redis);
  const late = `Redis, the queue store, did not answer ${ms === undefined ? 'in time' : `within ${ms} ms`}`;
  if (route.method === 'GET' || route.method === 'HEAD')
    return new HooklineError('REDIS_UNAVAILABLE', `${late}; retry shortly`);
  const advice =
    route.retryAfterLateRedis ??
    (route.idempotent
      ? 'check before retrying, or send it again with the same Idempotency-Key (it then takes effect once)'
      : 'check before retrying it');
  return new HooklineError('REDIS_UNAVAILABLE', `${late}; the request may still take effect: ${advice}`);
}
