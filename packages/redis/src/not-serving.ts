import { OUT_OF_REACH_SOCKET_CODES } from '@hookline/core';
import type { Redis } from 'ioredis';

// Errors that mean "Redis cannot serve us right now", as opposed to a bug: ioredis refusing a command while
// disconnected (no offline queue), giving up after its retry, or a socket error; servers that are up but not
// serving (loading the AOF, a replica without its master, a demoted primary, a cluster without quorum or in
// the middle of a promotion); Sentinel unable to name a primary; and a write the replicas did not acknowledge
// in time (HOOKLINE_REDIS_REPLICA_ACKS), which a failover could still lose; and a fan-out refused because its
// process stalled longer than FANOUT_STALE_MS (the event is accepted, its entry waits for the retry).
const CLIENT_MESSAGES =
  /Stream isn't writeable|Connection is closed|Command aborted due to connection close|Connection is in subscriber mode|max retries|Cluster isn't ready|Failed to refresh slots cache|None of startup nodes is available|Command timed out/i;
const SENTINEL_MESSAGES =
  /All sentinels are unreachable|failed to connect to sentinel|Failed to connect to sentinel|sentinel.*(master|primary).*(not found|unknown)/i;
// Replies of a server that is up but cannot serve this command now. They come bare (`ReplyError`), or, from
// the Cluster client, wrapped in "Too many Cluster redirections. Last error: ReplyError: …" once its own
// retries ran out during a promotion; NOSCRIPT and MOVED reach us that way too (a promoted replica without the
// script cache, a slot map that kept moving).
const NOT_SERVING = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS)\b/;
const NOT_SERVING_ANYWHERE = /\b(CLUSTERDOWN|MASTERDOWN|NOREPLICAS)\b/;
const CLUSTER_GAVE_UP = /^Too many Cluster redirections/;

/** Name of the error a write that the replicas did not acknowledge in time throws (@hookline/redis). */
export const REPLICA_ACKS_MISSING = 'ReplicaAcksMissingError';
/** Name of the error a fan-out refused as stale throws (@hookline/redis). */
export const STALE_FANOUT = 'StaleFanOutError';

export function isRedisUnavailable(error: unknown, redis: Pick<Redis, 'status'>): boolean {
  // Not always an Error: ioredis' AbortError (a command cut off by a closed connection, mid-failover) is built
  // on a class that does not pass instanceof Error here, so anything with a message is looked at.
  if (!isErrorLike(error)) return false;
  if (isNotServing(error)) return true;
  // Anything that failed while the client is not connected is reported as the outage it most likely is.
  return redis.status !== 'ready';
}

function isErrorLike(error: unknown): error is Error {
  return typeof error === 'object' && error !== null && typeof (error as Error).message === 'string';
}

/** Whether the error itself says Redis is not serving, whatever the client's state. */
export function isNotServing(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && OUT_OF_REACH_SOCKET_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError' || error.name === REPLICA_ACKS_MISSING) return true;
  if (error.name === STALE_FANOUT) return true;
  const { message } = error;
  if (CLIENT_MESSAGES.test(message) || SENTINEL_MESSAGES.test(message)) return true;
  if (CLUSTER_GAVE_UP.test(message)) return true;
  if (error.name === 'ReplyError' && NOT_SERVING.test(message)) return true;
  if (NOT_SERVING_ANYWHERE.test(message)) return true;
  // A transaction refused as a whole (EXECABORT) because a command in it was: those refusals say why (Bull
  // Board's MULTI on a shard that is down).
  const previous = (error as { previousErrors?: unknown }).previousErrors;
  return (
    message.startsWith('EXECABORT') &&
    Array.isArray(previous) &&
    previous.some((e) => isErrorLike(e) && isNotServing(e))
  );
}
