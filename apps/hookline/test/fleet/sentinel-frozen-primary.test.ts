import {
  startRedisSentinel,
  usePostgres,
  waitUntil,
  type RedisSentinelFixture,
  type RedisServerProcess,
} from '@hookline/testing';
import {
  expectNothingLostOrTwice,
  expectOnlyLagWindowsExposed,
  runFailovers,
  type Failover,
  type FailoverRun,
} from './failover-run';

// A primary behind Redis Sentinel that hangs (SIGSTOP, as a paused VM does) instead of dying: nothing closes the
// fleet's sockets to it and no READONLY comes, yet the sentinels promote a replica within seconds. The HTTP
// tier, two workers and the monitor from their production entry points must leave it for the new primary while
// it is still frozen (FROZEN_MS, far longer than the promotion), and what it does once it wakes (it is made a
// replica, its writes since the freeze thrown away) must cost nothing: every accepted event reaches its
// endpoint exactly once with HOOKLINE_REDIS_REPLICA_ACKS=1; with 0, only the freeze's own lag window (the
// writes the replica had not copied yet, usually none on loopback) is exposed.
//
// Two replicas: with acknowledgements required, the new primary needs a replica while the old one is frozen.
const FROZEN_MS = 40_000;

interface Freeze extends Failover {
  readonly frozenAt: number;
  readonly thawed: Promise<void>;
}

async function freezePrimary(redis: RedisSentinelFixture, log: string[]): Promise<Freeze> {
  const primary = await redis.primary();
  primary.freeze();
  const frozenAt = Date.now();
  const thawed = new Promise<void>((resolve) =>
    setTimeout(() => {
      primary.thaw();
      log.push(`old primary ${primary.port} thawed ${Date.now() - frozenAt} ms after the freeze`);
      resolve();
    }, FROZEN_MS),
  );
  await waitUntil(async () => (await redis.primary()) !== primary, 'a replica promoted', 30_000);
  const promotedAt = Date.now();
  const promoted: RedisServerProcess = await redis.primary();
  log.push(`primary ${primary.port} frozen; ${promoted.port} promoted after ${promotedAt - frozenAt} ms`);
  // The freeze is the window: what the primary wrote and its replicas had not copied yet.
  return { promotedAt, frozenAt, thawed, window: { from: frozenAt, to: frozenAt } };
}

async function runFleet(
  replicaAcks: number,
  pgSchema: string,
): Promise<{ run: FailoverRun; freeze: Freeze }> {
  const redis = await startRedisSentinel({
    replicas: 2,
    sentinels: 3,
    downAfterMs: 1000,
    password: 'fleet-s3cret',
    appendOnly: true,
  });
  let freeze: Freeze | undefined;
  try {
    const options = {
      redisEnv: {
        REDIS_URL: redis.redisUrl,
        REDIS_SENTINELS: redis.sentinelList,
        REDIS_SENTINEL_MASTER: redis.masterName,
      },
      replicaAcks,
      workers: 2,
      hooks: 30,
      rate: 100,
      pgSchema,
    };
    const run = await runFailovers(
      options,
      [async (log) => (freeze = await freezePrimary(redis, log))],
      3000,
    );
    return { run, freeze: freeze! };
  } finally {
    await freeze?.thawed;
    for (const server of redis.servers) server.thaw();
    await redis.stop();
  }
}

/** Every hook got a request again while the old primary was still frozen (the report's carry-on is from the promotion). */
function expectCarriedOnWhileFrozen({ run, freeze }: { run: FailoverRun; freeze: Freeze }): void {
  const carriedOnAt = freeze.promotedAt + run.carryOn[0]!;
  expect(carriedOnAt - freeze.frozenAt).toBeLessThan(FROZEN_MS);
}

describe('Redis with Sentinel: a primary that hangs', () => {
  const pg = usePostgres('sentinelfrozen');

  it('with HOOKLINE_REDIS_REPLICA_ACKS=1: the fleet carries on before it wakes; never twice, never lost', async () => {
    const result = await runFleet(1, pg.schema);
    expectNothingLostOrTwice(result.run, 400);
    expectCarriedOnWhileFrozen(result);
  }, 300_000);

  it('with HOOKLINE_REDIS_REPLICA_ACKS=0: the fleet carries on before it wakes; only the freeze is exposed', async () => {
    const result = await runFleet(0, pg.schema);
    expectOnlyLagWindowsExposed(result.run, 400);
    expectCarriedOnWhileFrozen(result);
  }, 300_000);
});
