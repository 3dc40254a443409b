import type { Redis } from 'ioredis';

// Errors that mean "Redis cannot serve us right now", as opposed to a bug: ioredis refusing a command while
// disconnected (no offline queue), giving up after its retry, or a socket error; and servers that are up but
// not serving (loading the AOF, a replica without its master, a cluster without quorum).
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
const CLIENT_MESSAGES =
  /Stream isn't writeable|Connection is closed|Connection is in subscriber mode|max retries/i;
const SERVER_NOT_SERVING = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY)\b/;

export function isRedisUnavailable(error: unknown, redis: Pick<Redis, 'status'>): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError' || CLIENT_MESSAGES.test(error.message)) return true;
  if (error.name === 'ReplyError' && SERVER_NOT_SERVING.test(error.message)) return true;
  // Anything that failed while the client is not connected is reported as the outage it most likely is.
  return redis.status !== 'ready';
}
