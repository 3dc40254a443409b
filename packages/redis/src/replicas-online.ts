import type { Cluster, Redis } from 'ioredis';

/** The servers holding data, whose keys a SCAN must walk: every master of a Cluster, else the one server. */
export function mastersOf(redis: Redis): Redis[] {
  return redis.isCluster ? (redis as unknown as Cluster).nodes('master') : [redis];
}

/**
 * The fewest replicas online of any primary (`INFO replication`, each `slaveN:…,state=online`): what
 * HOOKLINE_REDIS_REPLICA_ACKS=N needs at N or more, or publishing answers 503 and deliveries pause. On a
 * Cluster, the fewest of every master's.
 */
export async function fewestReplicasOnline(redis: Redis): Promise<number> {
  const counts = await Promise.all(
    mastersOf(redis).map(async (node) => {
      const info = await node.info('replication');
      return info.split('\n').filter((line) => /^slave\d+:.*state=online/.test(line)).length;
    }),
  );
  return Math.min(...counts);
}
