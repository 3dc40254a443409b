import type { ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { SwitchAwareSentinelConnector } from './sentinel-connector';

// How every client of hookline waits out a Redis failover instead of failing the command.
//
// A Redis Cluster promotes a replica `cluster-node-timeout` after its master went silent, plus an election:
// 3–5 s with 2000 ms, 6–8 s with the 5000 ms the README recommends. Meanwhile the shard's commands meet a
// closed connection, CLUSTERDOWN or TRYAGAIN, and the Cluster client retries each one up to `maxRedirections`
// times, `retryDelayOn…` apart. ioredis' defaults (16 × 100 ms) give up after ≈1.6 s, so a worker with a
// request in flight could not record its outcome. Here the budget is FAILOVER_BUDGET_MS (12 s): longer than a
// promotion with the recommended timeout, short enough that a worker stopped with SIGTERM still ends within
// its bound (it waits for the request in flight, not for Redis) and a hook held by a worker whose Redis never
// came back is taken over by another within the README's recovery time (lease 10 s + lock 25 s).
const RETRY_DELAY_MS = 300;
const RETRIES = 40;
export const FAILOVER_BUDGET_MS = RETRY_DELAY_MS * RETRIES;

export const FAILOVER_CLUSTER_OPTIONS: ClusterOptions = {
  maxRedirections: RETRIES,
  retryDelayOnClusterDown: RETRY_DELAY_MS,
  retryDelayOnFailover: RETRY_DELAY_MS,
  retryDelayOnTryAgain: RETRY_DELAY_MS,
  // The whole cluster unreachable (every seed and node): try again soon, then every second.
  clusterRetryStrategy: (times) => Math.min(100 * times, 1000),
};

/**
 * READONLY: the server this connection writes to is a replica now (its primary was demoted by a failover the
 * client did not see: Sentinel, or a standalone replica promoted by hand). Reconnect, which asks the sentinels
 * again, and send the command again (2): a replica refuses a write before doing anything, so it never ran.
 */
export function reconnectWhenDemoted(error: Error): boolean | 1 | 2 {
  return error.message.startsWith('READONLY') ? 2 : false;
}

/** REDIS_SENTINELS and its companions, as the settings give them. */
export interface SentinelTarget {
  readonly REDIS_SENTINELS?: readonly { readonly host: string; readonly port: number }[];
  readonly REDIS_SENTINEL_MASTER?: string;
  readonly REDIS_SENTINEL_PASSWORD?: string | undefined;
}

/**
 * The primary through Redis Sentinel: the sentinels are asked which server is the primary at every (re)connect;
 * a client still connected to a demoted primary reconnects at its first READONLY. A primary that hangs instead
 * (SIGSTOP, a paused VM) answers nothing, READONLY neither, and closes no socket: the process's switch watcher
 * (sentinel-switches.ts, started by every hookline process) hears `+switch-master` and closes the connections
 * the connector (sentinel-connector.ts) sent to another server than the new primary, so they reconnect too.
 * ioredis' `failoverDetector` is left off: its disconnect on +switch-master can land while the client is asking
 * the sentinels, and the client then stays closed for good ("Connection is closed." from the sentinel
 * connector, seen in the fleet test with ioredis 5.11). `access` (REDIS_URL's user, password, TLS)
 * applies to the data nodes; TLS to the sentinels too, and REDIS_SENTINEL_PASSWORD, when set, to them.
 */
export function sentinelOptions(target: SentinelTarget, access: RedisOptions): RedisOptions {
  const tls = access.tls !== undefined;
  return {
    ...access,
    sentinels: (target.REDIS_SENTINELS ?? []).map(({ host, port }) => ({ host, port })),
    name: target.REDIS_SENTINEL_MASTER ?? 'mymaster',
    // Copied by duplicate(), so BullMQ's blocking connections are known to the switch watcher too.
    Connector: SwitchAwareSentinelConnector,
    ...(target.REDIS_SENTINEL_PASSWORD
      ? {
          sentinelPassword: target.REDIS_SENTINEL_PASSWORD,
          ...(access.username ? { sentinelUsername: access.username } : {}),
        }
      : {}),
    ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    // While no sentinel answers, or the one named is not up yet: again soon, then every half second.
    sentinelRetryStrategy: (times) => Math.min(100 * times, 500),
    retryStrategy: (times) => Math.min(50 * times, 500),
  };
}

/**
 * How long a request to the API waits for a Sentinel client that lost its primary before it answers 503.
 * A client through Sentinel is not connected from the primary's death until the sentinels name the promoted
 * replica (`down-after-milliseconds` plus an election: 2–3 s with 1000 ms, 6–7 s with the README's 5000), and
 * without an offline queue every command meanwhile fails at once. 8 s covers a promotion with the recommended
 * settings and stays below the 10 s timeout many producers' HTTP clients use, so a publish during a
 * failover is accepted late rather than refused, and an outage that lasts still answers 503 within 8 s.
 * (A Cluster client waits in its own retries instead: FAILOVER_BUDGET_MS.)
 */
export const SENTINEL_REQUEST_WAIT_MS = 8000;

/** Whether this client finds its primary through Redis Sentinel (REDIS_SENTINELS). */
export function findsPrimaryThroughSentinel(redis: object): boolean {
  const options = (redis as { options?: { sentinels?: unknown } }).options;
  return Array.isArray(options?.sentinels) && options.sentinels.length > 0;
}

// One listener per client while it is not ready, however many requests wait on it.
const nextReady = new WeakMap<object, Promise<boolean>>();

/**
 * Resolves true once the client is connected and ready (at once when it is), false when `ms` passed first or
 * the client was closed for good. Nothing is queued: the caller's commands are sent after this, or not at all.
 */
export async function untilReady(
  redis: Pick<Redis, 'status' | 'once' | 'off'>,
  ms: number,
): Promise<boolean> {
  if (redis.status === 'ready') return true;
  if (redis.status === 'end') return false;
  let shared = nextReady.get(redis);
  if (!shared) {
    shared = new Promise<boolean>((resolve) => {
      const done = (ready: boolean) => {
        redis.off('ready', onReady);
        redis.off('end', onEnd);
        nextReady.delete(redis);
        resolve(ready);
      };
      const onReady = () => done(true);
      const onEnd = () => done(false);
      redis.once('ready', onReady);
      redis.once('end', onEnd);
    });
    nextReady.set(redis, shared);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([shared, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
