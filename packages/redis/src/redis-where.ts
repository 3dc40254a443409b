import type { RedisTarget } from './connection';

/**
 * Where a process looks for Redis, as its settings say it, for the log line of a connection error: the
 * client's own words (`Failed to refresh slots cache.`, `All sentinels are unreachable`) name neither the
 * setting nor the addresses, nor, for a Cluster, why each seed failed. Passwords are never shown.
 */
export interface RedisWhere {
  /** `REDIS_CLUSTER_NODES=10.0.1.1:6379,…`, `REDIS_SENTINELS=… REDIS_SENTINEL_MASTER=…` or `REDIS_URL=…`. */
  readonly shown: string;
  /** What the error means for these settings, when the client's words do not say it. */
  explain(error: Error): string | undefined;
}

const nodes = (list: readonly { readonly host: string; readonly port: number }[]) =>
  list.map(({ host, port }) => `${host}:${port}`).join(',');

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

export function redisWhere(target: Exclude<RedisTarget, string>): RedisWhere {
  const sentinels = target.REDIS_SENTINELS ?? [];
  const master = target.REDIS_SENTINEL_MASTER ?? 'mymaster';
  const shown =
    sentinels.length > 0
      ? `REDIS_SENTINELS=${nodes(sentinels)} REDIS_SENTINEL_MASTER=${master}`
      : target.REDIS_CLUSTER_NODES.length > 0
        ? `REDIS_CLUSTER_NODES=${nodes(target.REDIS_CLUSTER_NODES)}`
        : `REDIS_URL=${redacted(target.REDIS_URL)}`;
  return {
    shown,
    explain(error) {
      if (/No such master with that name/.test(error.message))
        return `the sentinels answer but know no primary named "${master}": check REDIS_SENTINEL_MASTER`;
      if (sentinels.length > 0) {
        const failover = sentinelFailoverHint(error.message, sentinels);
        if (failover) return failover;
      }
      // ioredis' ClusterAllFailedError keeps why the last seed failed beside its own words.
      const last = (error as { lastNodeError?: { message?: unknown } }).lastNodeError?.message;
      if (typeof last !== 'string') return undefined;
      if (/cluster support disabled/.test(last))
        return `a seed is not a Redis Cluster node (${last}): REDIS_CLUSTER_NODES is for a Redis Cluster; use REDIS_URL for one server`;
      return `no seed of REDIS_CLUSTER_NODES answered as a cluster node; the last: ${last}`;
    },
  };
}

/** A connection refused or out of reach, as Node words it: `connect ECONNREFUSED 10.0.1.5:6379`. */
const UNREACHABLE = /^connect (?:ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH) (\S+)$/;
const FAILOVER = 'a failover may be under way (with no replica to promote, it never ends)';

/**
 * What ioredis says while the sentinels answer but name a primary that does not: it connects to the named
 * primary (refused), and on its next attempt asks the next sentinel; once it has asked every one it says
 * `All sentinels are unreachable`, without a `Last error` (which only a sentinel that failed to answer sets).
 */
function sentinelFailoverHint(
  message: string,
  sentinels: readonly { readonly host: string; readonly port: number }[],
): string | undefined {
  const address = UNREACHABLE.exec(message)?.[1];
  if (address && !sentinels.some(({ host, port }) => `${host}:${port}` === address))
    return `the sentinels name ${address} as the primary and it does not answer: ${FAILOVER}`;
  if (/^All sentinels are unreachable\b/.test(message) && !/Last error:/.test(message))
    return `the sentinels answer, but the primary they name does not: ${FAILOVER}`;
  return undefined;
}
