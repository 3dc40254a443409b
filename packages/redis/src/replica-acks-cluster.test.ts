import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import {
  startRedisCluster,
  waitUntil,
  type RedisClusterFixture,
  type RedisServerProcess,
} from '@hookline/testing';
import { LuaScript } from './lua-script';
import { createRedis } from './connection';
import { runAcknowledged } from './replica-acks';

// A write and the WAIT that confirms it must travel together. Here the master of a key's slot is killed
// while a WAIT for a write it took is blocked (its replica stopped copying first, so the promoted replica
// lacks the write), then started again, to rejoin as the new master's replica. Real Redis Cluster on ports of
// its own, cluster-node-timeout 1000 ms.

const SET = new LuaScript('test-set', "redis.call('SET', KEYS[1], ARGV[1]) return 1");

/** The master serving `key`'s slot and its replica, as a running node sees them. */
async function shardOf(
  cluster: RedisClusterFixture,
  key: string,
): Promise<{ master: RedisServerProcess; replica: RedisServerProcess }> {
  const asker = cluster.servers.find((s) => s.running)!;
  const slot = Number(await asker.call((r) => r.call('CLUSTER', 'KEYSLOT', key)));
  const lines = String(await asker.call((r) => r.call('CLUSTER', 'NODES')))
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const line = lines.find(
    (f) =>
      f[2]!.includes('master') &&
      !f[2]!.includes('fail') &&
      f.slice(8).some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= from! && slot <= to!;
      }),
  )!;
  const master = cluster.servers.find((s) => s.port === Number(/:(\d+)@/.exec(line[1]!)![1]))!;
  const [replica] = await cluster.replicasOf(master);
  return { master, replica: replica! };
}

/**
 * How the master is lost: `blocked`, killed while the WAIT waits on it (the write was answered); `unsent`,
 * frozen after `prepare` and before `confirm` is sent, then killed: nothing of `confirm` was answered.
 */
type Loss = 'blocked' | 'unsent';

/**
 * Runs `confirm` (which waits for the acknowledgement of a write of `key`) while the shard's master loses the
 * write: the replica's link is cut first, the master killed, the replica promoted, the master started again
 * (as the new master's replica). Resolves with how `confirm` ended and whether the new master has the key.
 */
async function loseTheMaster(
  cluster: RedisClusterFixture,
  key: string,
  loss: Loss,
  confirm: () => Promise<unknown>,
  prepare: () => Promise<unknown> = async () => undefined,
): Promise<{ ended: 'acknowledged' | 'refused'; keptByNewMaster: boolean }> {
  const { master, replica } = await shardOf(cluster, key);
  replica.freeze();
  let confirming: Promise<'acknowledged' | 'refused'>;
  try {
    await master.call((r) => r.call('CLIENT', 'KILL', 'TYPE', 'replica'));
    await prepare();
    if (loss === 'unsent') {
      master.freeze();
      await sleep(100); // stopped for sure before anything of `confirm` reaches it
    }
    confirming = confirm().then(
      () => 'acknowledged' as const,
      () => 'refused' as const,
    );
    if (loss === 'blocked')
      await waitUntil(
        () =>
          master.call(async (r) => (String(await r.client('LIST')).includes('cmd=wait') ? true : undefined)),
        'a WAIT blocked on the master',
        5000,
        5,
      );
    else await sleep(300);
    await master.kill();
  } finally {
    replica.thaw();
  }
  await waitUntil(
    () =>
      replica.call(async (r) =>
        (await replica.role()) === 'master' &&
        String(await r.call('CLUSTER', 'INFO')).includes('cluster_state:ok')
          ? true
          : undefined,
      ),
    'the replica promoted',
    30_000,
  );
  // Back as the new master's replica: from now on a WAIT on the new master is answered at once.
  await master.start();
  await cluster.healthy(30_000);
  const ended = await Promise.race([confirming, sleep(15_000).then(() => 'refused' as const)]);
  const keptByNewMaster = (await replica.call((r) => r.exists(key))) === 1;
  return { ended, keptByNewMaster };
}

describe('replica acknowledgements across a Redis Cluster failover', () => {
  let cluster: RedisClusterFixture;
  let client: Cluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 1000 });
    // hookline's own Cluster client, with its failover retries (failover.ts).
    client = createRedis({
      REDIS_URL: '',
      REDIS_CLUSTER_NODES: cluster.nodes,
      HOOKLINE_REDIS_REPLICA_ACKS: 1,
    }) as unknown as Cluster;
    client.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  const acknowledged = (key: string) => async () => {
    const { unacknowledged } = await runAcknowledged(client as unknown as Redis, SET, [key], ['1']);
    if (unacknowledged) throw unacknowledged;
  };

  it('a write whose master died while its WAIT waited is not acknowledged (and is gone)', async () => {
    const key = '{acks-a}:event';
    // The script known to the master already: a NOSCRIPT would have the pair sent again, whole, elsewhere.
    await SET.run(client, ['{acks-a}:warm'], ['1']);
    const run = await loseTheMaster(cluster, key, 'blocked', acknowledged(key));
    expect(run).toEqual({ ended: 'refused', keptByNewMaster: false });
  }, 120_000);

  // Where a WAIT sent apart from its write, unanswered, can be sent again to the new master and acknowledged
  // for a write that master never had (what lost accepted events in the Cluster failover test). ioredis
  // either gives up on the pair (refused) or sends it again whole, and then the new master has the write.
  it('a write and WAIT the dead master never answered are never acknowledged without the write', async () => {
    const key = '{acks-b}:event';
    await SET.run(client, ['{acks-b}:warm'], ['1']);
    const run = await loseTheMaster(cluster, key, 'unsent', acknowledged(key));
    expect(run.ended === 'refused' || run.keptByNewMaster).toBe(true);
  }, 120_000);
});
