import { z } from 'zod';
import { clusterNode, commaList, int, nodeKey, setting } from './setting-parsers';

/** Redis high availability: a Cluster, or a primary found through Sentinel, and replica acknowledgements. */
export const redisHaSettings = {
  REDIS_CLUSTER_NODES: setting(
    commaList(clusterNode, nodeKey),
    'comma-separated `host:port` seeds of a Redis Cluster (e.g. `10.0.1.1:6379,10.0.1.2:6379`); when set, ' +
      'hookline runs in cluster mode, and of `REDIS_URL` only the user, password and TLS (`rediss://`) are ' +
      'used, for every node: `REDIS_URL=rediss://hookline:s3cret@cluster`',
  ),
  REDIS_SENTINELS: setting(
    commaList(clusterNode, nodeKey),
    'comma-separated `host:port` of the Redis Sentinels watching the primary (e.g. ' +
      '`10.0.1.1:26379,10.0.1.2:26379,10.0.1.3:26379`); when set, every process asks them for the current ' +
      'primary (and again after a failover), and of `REDIS_URL` only the user, password and TLS (`rediss://`, ' +
      'then also towards the sentinels) are used: `REDIS_URL=redis://hookline:s3cret@sentinel`. Not together ' +
      'with `REDIS_CLUSTER_NODES`',
  ),
  REDIS_SENTINEL_MASTER: setting(
    z
      .string()
      .regex(
        /^[A-Za-z0-9._-]{1,64}$/,
        'must be the name from `sentinel monitor <name> …` (letters, digits, . _ -)',
      )
      .default('mymaster'),
    'with `REDIS_SENTINELS`: the name the sentinels know the primary by (`sentinel monitor <name> …`)',
  ),
  REDIS_SENTINEL_PASSWORD: setting(
    z.string().min(1).optional(),
    "with `REDIS_SENTINELS`: the sentinels' own password (`requirepass` in sentinel.conf), when they " +
      'require one; the user of `REDIS_URL`, if any, is used with it',
    '— (the sentinels are asked without a password)',
  ),
  HOOKLINE_REDIS_REPLICA_ACKS: setting(
    int(0, 0, 16),
    'how many replicas must have acknowledged (Redis `WAIT`, up to 1 s) the writes that delivery promises ' +
      "rest on before hookline acts on them: the attempt's mark before its request leaves, an accepted " +
      "event's jobs and the workers' signal before the 202, an outcome and its history record. A write not " +
      'acknowledged in time ' +
      'answers 503 (publish) or sends nothing (delivery); see the README on Redis failover',
  ),
};

/**
 * Combinations the settings above cannot mean: Sentinel with a Cluster, and the sentinels' primary name or
 * password without any sentinel to ask (they would be ignored, and the process would use REDIS_URL as it is).
 */
export function redisHaProblems(present: Readonly<Record<string, string | undefined>>): string[] {
  const problems: string[] = [];
  if (present.REDIS_SENTINELS !== undefined && present.REDIS_CLUSTER_NODES !== undefined)
    problems.push(
      'REDIS_SENTINELS: cannot be used with REDIS_CLUSTER_NODES (a Redis Cluster fails over by itself)',
    );
  if (present.REDIS_SENTINELS === undefined)
    for (const name of ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'])
      if (present[name] !== undefined)
        problems.push(`${name}: is used only with REDIS_SENTINELS, which is not set (set both, or neither)`);
  return problems;
}
