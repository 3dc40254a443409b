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

/**
 * Node's codes for a listen address that is no address of this machine (not one of its own, or a name that
 * resolves to none): HOST for the HTTP tier, HOOKLINE_METRICS_HOST for workers and monitors.
 */
export const NOT_THIS_MACHINE_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EADDRNOTAVAIL',
]);
