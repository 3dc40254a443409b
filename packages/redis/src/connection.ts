import IORedis, { Cluster, type ClusterOptions, type Redis, type RedisOptions } from 'ioredis';
import { FAILOVER_CLUSTER_OPTIONS, reconnectWhenDemoted, sentinelOptions } from './failover';
import { requireReplicaAcks } from './replica-acks';
import { CLUSTER_REQUEST_COMMAND_TIMEOUT_MS, REQUEST_COMMAND_TIMEOUT_MS } from './request-deadline';

/**
 * Where Redis is: a URL, or the settings (a Redis Cluster when REDIS_CLUSTER_NODES has seeds, a primary found
 * through Redis Sentinel when REDIS_SENTINELS has any).
 */
export type RedisTarget =
  | string
  | {
      readonly REDIS_URL: string;
      readonly REDIS_CLUSTER_NODES: readonly { readonly host: string; readonly port: number }[];
      readonly REDIS_SENTINELS?: readonly { readonly host: string; readonly port: number }[];
      readonly REDIS_SENTINEL_MASTER?: string;
      readonly REDIS_SENTINEL_PASSWORD?: string | undefined;
      /** Replica acknowledgements the writes that promises rest on need (see replica-acks.ts). */
      readonly HOOKLINE_REDIS_REPLICA_ACKS?: number;
    };

// The Cluster client is handed around typed as Redis: it answers every command hookline sends the same way
// (every script and transaction keeps to one hash tag), `duplicate()` exists on both, and BullMQ takes either.
// Every client, whatever its retry policy, reconnects when a server answers READONLY: the primary it is
// connected to was demoted (a failover it did not see), and a new connection finds the new primary.
function connect(target: RedisTarget, node: RedisOptions, cluster: ClusterOptions = {}): Redis {
  const redis = connectTo(target, node, cluster);
  return typeof target === 'string'
    ? redis
    : requireReplicaAcks(redis, target.HOOKLINE_REDIS_REPLICA_ACKS ?? 0);
}

function connectTo(target: RedisTarget, node: RedisOptions, cluster: ClusterOptions): Redis {
  const options = { reconnectOnError: reconnectWhenDemoted, ...node };
  if (typeof target === 'string') return new IORedis(target, options);
  if (target.REDIS_SENTINELS && target.REDIS_SENTINELS.length > 0)
    return new IORedis({ ...sentinelOptions(target, clusterAccess(target.REDIS_URL)), ...options });
  if (target.REDIS_CLUSTER_NODES.length === 0) return new IORedis(target.REDIS_URL, options);
  const seeds = target.REDIS_CLUSTER_NODES.map(({ host, port }) => ({ host, port }));
  return new Cluster(seeds, {
    ...FAILOVER_CLUSTER_OPTIONS,
    ...cluster,
    redisOptions: { ...clusterAccess(target.REDIS_URL), ...options },
  }) as unknown as Redis;
}

/**
 * In cluster mode the seeds come from REDIS_CLUSTER_NODES and everything else from REDIS_URL: its user and
 * password, and TLS for `rediss://`, apply to every node (the nodes the cluster reports as well as the seeds).
 * With Sentinel, the same applies to the primary the sentinels name (and TLS to the sentinels too).
 */
export function clusterAccess(redisUrl: string): RedisOptions {
  if (!redisUrl) return {};
  const url = new URL(redisUrl);
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

// BullMQ requires maxRetriesPerRequest: null on connections it blocks on; we use it everywhere so that a
// Redis restart makes commands wait for the reconnect instead of failing half-way through a delivery.
export function createRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  return connect(target, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/** For request paths (the API): fail fast so a Redis outage becomes a 503, not a hung request. */
export function createFailFastRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  return connect(
    target,
    { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, ...options },
    // A cluster client queues commands while it (re)discovers the shards; the API must answer 503 instead.
    { enableOfflineQueue: false },
  );
}

/**
 * The HTTP tier's client: fail fast, and every command with a deadline (request-deadline.ts), so a Redis that
 * stops answering without closing its connections becomes a 503 too.
 */
export function createRequestRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  const cluster =
    typeof target !== 'string' &&
    !(target.REDIS_SENTINELS && target.REDIS_SENTINELS.length > 0) &&
    target.REDIS_CLUSTER_NODES.length > 0;
  return createFailFastRedis(target, {
    commandTimeout: cluster ? CLUSTER_REQUEST_COMMAND_TIMEOUT_MS : REQUEST_COMMAND_TIMEOUT_MS,
    ...options,
  });
}

/**
 * Whether Redis answers PING within `ms`: a client that is not connected answers false at once, without
 * queueing a command behind the reconnect, and a PING that neither fails nor answers (a stalled server)
 * still ends the wait. On a Redis Cluster a node answers PING while the cluster refuses every key
 * (CLUSTERDOWN: a shard without a master), and the client stays `ready`: the cluster's own state is asked too.
 */
export async function answersWithin(
  redis: Pick<Redis, 'ping' | 'status' | 'isCluster' | 'cluster'>,
  ms: number,
): Promise<{ ok: true; ms: number } | { ok: false; reason: string }> {
  if (redis.status !== 'ready') return { ok: false, reason: `not connected (${redis.status})` };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    const answer = await Promise.race([serving(redis), timeout]);
    if (answer === 'PONG') return { ok: true, ms: Math.round(performance.now() - started) };
    return { ok: false, reason: answer === 'timeout' ? `no answer to PING within ${ms} ms` : answer };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** PONG, or what the server (or the cluster) said instead. */
async function serving(redis: Pick<Redis, 'ping' | 'isCluster' | 'cluster'>): Promise<string> {
  const pong = await redis.ping();
  if (pong !== 'PONG' || !redis.isCluster) return pong;
  const info = String(await redis.cluster('INFO'));
  const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
  return state === 'ok'
    ? pong
    : `the Redis Cluster does not serve (cluster_state:${state}: a shard has no master)`;
}
