import { useRedisPair, waitUntil, type RedisServerProcess } from '@hookline/testing';
import { callAcknowledged, requireReplicaAcks } from './replica-acks';

// A WAIT counts only on the connection that wrote: sent again on a new connection (which wrote nothing), it
// would answer with every replica of the server at once, and after a failover that server may lack the write.
// The write and its WAIT go as one pipeline, and ioredis does not send the WAIT again alone: the rest of a
// pipeline that was partly answered (the write) when its connection closed is aborted. This test is there so
// that an ioredis upgrade that changes it is seen. Real servers on ports of their own.

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
  const acked = useRedisPair((redis) => requireReplicaAcks(redis, 1));

  it('acknowledged on the connection that wrote', async () => {
    const { redis } = acked;
    expect(await callAcknowledged(redis, 'SET', '{acks}:a', ['1'])).toEqual({ reply: 'OK' });
  });

  it('a WAIT cut off with its connection does not count', async () => {
    const { redis, replica } = acked;
    replica.freeze();
    let confirming: Promise<Error | undefined> | undefined;
    try {
      confirming = callAcknowledged(redis, 'SET', '{acks}:b', ['1']).then((a) => a.unacknowledged);
      confirming.catch(() => undefined);
      await cutWaitingConnection(acked.pair.servers[0]!);
    } finally {
      replica.thaw();
    }
    expect((await confirming)?.message).toMatch(
      /Command aborted due to connection close|connection to Redis closed/,
    );
    expect(await callAcknowledged(redis, 'SET', '{acks}:c', ['1'])).toEqual({ reply: 'OK' });
  });
});
