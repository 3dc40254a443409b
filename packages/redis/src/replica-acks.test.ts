import IORedis from 'ioredis';
import {
  startRedisSentinel,
  waitUntil,
  type RedisSentinelFixture,
  type RedisServerProcess,
} from '@hookline/testing';
import { confirmWrites, requireReplicaAcks } from './replica-acks';

// A WAIT counts only on the connection that wrote: sent again on a new connection (which wrote nothing), it
// would answer with every replica of the server at once, and after a failover that server may lack the write.
// ioredis does not send it again: the rest of a pipeline that was partly answered (the slot's read) when its
// connection closed is aborted. This test is there so that an ioredis upgrade that changes it is seen. Real
// servers on ports of their own.

/** Waits until a WAIT is blocked on `server`, then cuts the connection it came on. */
async function cutWaitingConnection(server: RedisServerProcess): Promise<void> {
  const waiting = await waitUntil(
    () =>
      server.call(async (r) => {
        const line = String(await r.client('LIST'))
          .split('\n')
          .find((l) => l.includes('cmd=wait'));
        return line && /\bid=(\d+)/.exec(line)?.[1];
      }),
    'a WAIT blocked on the server',
    5000,
    5,
  );
  await server.call((r) => r.client('KILL', 'ID', waiting));
}

describe('replica acknowledgements across a reconnection', () => {
  let pair: RedisSentinelFixture;
  let redis: IORedis;
  beforeAll(async () => {
    pair = await startRedisSentinel({ replicas: 1, sentinels: 0 });
    const primary = pair.servers[0]!;
    redis = requireReplicaAcks(new IORedis(primary.port, primary.host, { maxRetriesPerRequest: null }), 1);
  }, 30000);
  afterAll(async () => {
    redis?.disconnect();
    await pair?.stop();
  });

  it('acknowledged on the connection that wrote', async () => {
    await redis.set('{acks}:a', '1');
    await expect(confirmWrites(redis, '{acks}:a')).resolves.toBeUndefined();
  });

  it('a WAIT cut off with its connection does not count', async () => {
    const replica = pair.servers[1]!;
    replica.freeze();
    let confirming: Promise<void> | undefined;
    try {
      await redis.set('{acks}:b', '1');
      confirming = confirmWrites(redis, '{acks}:b');
      confirming.catch(() => undefined);
      await cutWaitingConnection(pair.servers[0]!);
    } finally {
      replica.thaw();
    }
    await expect(confirming).rejects.toThrow(
      /Command aborted due to connection close|connection to Redis closed/,
    );
    await redis.set('{acks}:c', '1');
    await expect(confirmWrites(redis, '{acks}:c')).resolves.toBeUndefined();
  });
});
