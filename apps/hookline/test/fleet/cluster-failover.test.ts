import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  startRedisCluster,
  usePostgres,
  waitUntil,
  type RedisClusterFixture,
  type RedisServerProcess,
} from '@hookline/testing';
import {
  expectNothingLostOrTwice,
  expectOnlyLagWindowsExposed,
  runFailovers,
  type Failover,
  type FailoverRun,
} from './failover-run';
import { killWithLag } from './lag-window';

// A Redis Cluster of 3 masters + 3 replicas (cluster-node-timeout 2000, AOF everysec); the HTTP tier, two
// workers and the monitor from their production entry points with REDIS_CLUSTER_NODES; ≈100 events/s over
// 30 hooks (half slow), each publish retried with the same id on 503. Each shard's master is killed with
// SIGKILL and its replica promoted, twice per shard (so each original master and each original replica dies
// once), and the killed master is started again: it rejoins as the new master's replica.
//
// Replication is cut on purpose, as in the Sentinel test (see lag-window.ts): the replica frozen, its link cut
// from the master's side, the master killed 400 ms later, then the replica thawed. The cluster promotes it
// about 4 s later, without the master's last 400 ms of writes.
//
// With acknowledgements each shard fails over twice, so that every node dies once, both ways round. Without,
// what is checked is that only the lag windows' writes are exposed: one failover per shard shows that, and
// each further one repeats it for ≈30 s (a job whose completion was lost waits out its lock before it carries
// on). FLEET_ROUNDS sets both.
const ROUNDS_PER_SHARD = Number(process.env.FLEET_ROUNDS ?? 2);
const ROUNDS_PER_SHARD_WITHOUT_ACKS = Number(process.env.FLEET_ROUNDS ?? 1);

/** The masters serving slots, by their first slot (shard 0, 1, 2), as a running node sees them. */
async function masters(cluster: RedisClusterFixture): Promise<RedisServerProcess[]> {
  const asker = cluster.servers.find((s) => s.running)!;
  const lines = String(await asker.call((r) => r.call('CLUSTER', 'NODES')))
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  return lines
    .filter((f) => f[2]!.includes('master') && !f[2]!.includes('fail') && f[8] !== undefined)
    .sort((a, b) => Number(a[8]!.split('-')[0]) - Number(b[8]!.split('-')[0]))
    .map((f) => cluster.servers.find((s) => s.port === Number(/:(\d+)@/.exec(f[1]!)![1]))!);
}

async function failOverShard(cluster: RedisClusterFixture, shard: number, log: string[]): Promise<Failover> {
  const master = (await masters(cluster))[shard]!;
  const [replica] = await cluster.replicasOf(master);
  const window = await killWithLag(master, replica!);
  const killedAt = window.to;
  await waitUntil(
    () =>
      replica!.call(
        async (r) =>
          (await replica!.role()) === 'master' &&
          String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:ok'),
      ),
    'the replica promoted',
    30_000,
  );
  const promotedAt = Date.now();
  log.push(
    `shard ${shard}: master ${master.port} killed; ${replica!.port} promoted after ${promotedAt - killedAt} ms`,
  );
  // Started again with its own files: it rejoins as the new master's replica.
  await master.start();
  await cluster.healthy(30_000);
  log.push(
    `shard ${shard}: ${master.port} back as a replica ${Date.now() - promotedAt} ms after the promotion`,
  );
  return { promotedAt, window };
}

/**
 * FLEET_MONITOR only: every command each node runs (MONITOR, scripts' own commands included), to
 * /tmp/mon/<port>.log, across the node's restarts: where a lost event's job was written, and by whom.
 */
function monitorNodes(cluster: RedisClusterFixture): ChildProcess[] {
  mkdirSync('/tmp/mon', { recursive: true });
  const auth = cluster.password ? `-a '${cluster.password}' --no-auth-warning` : '';
  return cluster.servers.map((s) =>
    spawn(
      'sh',
      [
        '-c',
        `while true; do redis-cli -p ${s.port} ${auth} monitor >> /tmp/mon/${s.port}.log; sleep 0.02; done`,
      ],
      { stdio: 'ignore', detached: true },
    ),
  );
}

async function runFleet(replicaAcks: number, pgSchema: string, roundsPerShard: number): Promise<FailoverRun> {
  const cluster = await startRedisCluster({
    masters: 3,
    replicas: 1,
    nodeTimeoutMs: 2000,
    appendOnly: true,
    password: 'fleet-s3cret',
  });
  const monitors = process.env.FLEET_MONITOR ? monitorNodes(cluster) : [];
  try {
    const options = {
      redisEnv: { REDIS_URL: cluster.redisUrl, REDIS_CLUSTER_NODES: cluster.seeds },
      replicaAcks,
      workers: 2,
      hooks: 30,
      rate: 100,
      pgSchema,
    };
    const rounds = Array.from(
      { length: roundsPerShard * 3 },
      (_, i) => (log: string[]) => failOverShard(cluster, i % 3, log),
    );
    return await runFailovers(options, rounds);
  } finally {
    for (const m of monitors) if (m.pid) process.kill(-m.pid, 'SIGKILL');
    await cluster.stop();
  }
}

describe('a Redis Cluster with replicas failing over under load', () => {
  const pg = usePostgres('clusterfleet');

  it('with HOOKLINE_REDIS_REPLICA_ACKS=1: never twice, never lost, in order, only 202/200/503', async () => {
    expectNothingLostOrTwice(await runFleet(1, pg.schema, ROUNDS_PER_SHARD), 300 * ROUNDS_PER_SHARD);
  }, 420_000);

  it("with HOOKLINE_REDIS_REPLICA_ACKS=0: only the lag windows' writes are exposed; no 500s", async () => {
    expectOnlyLagWindowsExposed(
      await runFleet(0, pg.schema, ROUNDS_PER_SHARD_WITHOUT_ACKS),
      300 * ROUNDS_PER_SHARD_WITHOUT_ACKS,
    );
  }, 420_000);
});
