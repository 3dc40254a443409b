/**
 * Socket error codes that mean a server is out of reach right now (refused, reset, timed out, no route, no
 * address), not a bug: both the Redis and the PostgreSQL outage checks answer 503 for them.
 */
export const OUT_OF_REACH_SOCKET_CODES: ReadonlySet<string> = new Set([
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
