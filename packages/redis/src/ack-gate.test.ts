import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { useRedisPair } from '@hookline/testing';
import { MAX_PENDING_WAITS, SLOW_WAIT_MS } from './ack-gate';
import { callAcknowledged, ReplicaAcksMissingError, requireReplicaAcks } from './replica-acks';

// A WAIT blocks its connection until it answers, so WAITs sent together while no replica answers end one
// after another, each after its whole timeout (1 s). The connection's gate keeps at most one of them waiting
// once the replicas are known not to answer. Counted by the primary (INFO commandstats: WAIT calls), not
// timed. A real primary and replica on ports of their own; the replica frozen with SIGSTOP.

async function waitCalls(redis: Redis): Promise<number> {
  const stats = String(await redis.info('commandstats'));
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

const write = (redis: Redis, key: string) => callAcknowledged(redis, 'SET', key, ['1']);

describe("a connection's WAITs while its replica does not answer", () => {
  const acked = useRedisPair((redis) => requireReplicaAcks(redis, 1));
  // Each case starts with the replica answering and the gate told so.
  beforeEach(async () => expect(await write(acked.redis, '{gate}:warm')).toEqual({ reply: 'OK' }));

  it('answered, each write is acknowledged by a WAIT of its own', async () => {
    const { redis } = acked;
    const before = await waitCalls(redis);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => write(redis, `{gate}:ok${i}`)));
    expect(results).toEqual(Array.from({ length: 20 }, () => ({ reply: 'OK' })));
    expect((await waitCalls(redis)) - before).toBe(20);
  });

  it('once a WAIT fell short, one write at a time waits for the replica; the others are written, not acknowledged', async () => {
    const { redis, replica } = acked;
    await replica.whileFrozen(async () => {
      const first = await write(redis, '{gate}:first');
      expect(first.unacknowledged).toBeInstanceOf(ReplicaAcksMissingError);
      const before = await waitCalls(redis);
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => write(redis, `{gate}:b${i}`)));
      // One probe took its WAIT (and fell short too); the 19 others went without one.
      expect((await waitCalls(redis)) - before).toBe(1);
      for (const { reply, unacknowledged } of burst) {
        expect(reply).toBe('OK');
        expect(unacknowledged).toBeInstanceOf(ReplicaAcksMissingError);
      }
      const skipped = burst.filter((r) => /not waited for/.test(r.unacknowledged!.message));
      expect(skipped).toHaveLength(19);
      expect(skipped[0]!.unacknowledged!.message).toBe(
        '1 replica acknowledgement required (HOOKLINE_REDIS_REPLICA_ACKS), not waited for: the last WAIT ' +
          'on this connection found 0 acknowledged within 1000 ms',
      );
      // Written all the same, as after a WAIT that timed out: every caller tries again or answers 503.
      expect(await redis.exists(...burst.map((_, i) => `{gate}:b${i}`))).toBe(20);
    });
    // The next write is the probe: acknowledged, and the connection's writes wait for the replica again.
    expect(await write(redis, '{gate}:back')).toEqual({ reply: 'OK' });
    const before = await waitCalls(redis);
    expect(await Promise.all([write(redis, '{gate}:c1'), write(redis, '{gate}:c2')])).toEqual([
      { reply: 'OK' },
      { reply: 'OK' },
    ]);
    expect((await waitCalls(redis)) - before).toBe(2);
  }, 30_000);

  it('writes made while a WAIT is slow are held until it answers, so few WAITs queue when a replica stops mid-traffic', async () => {
    const { redis, replica } = acked;
    await replica.whileFrozen(async () => {
      const before = await waitCalls(redis);
      const slow = write(redis, '{gate}:slow');
      await sleep(SLOW_WAIT_MS * 3);
      const held = await Promise.all(Array.from({ length: 10 }, (_, i) => write(redis, `{gate}:h${i}`)));
      expect((await slow).unacknowledged).toBeInstanceOf(ReplicaAcksMissingError);
      // The slow one and, once it fell short, one probe among the held: not 11 WAITs one after another.
      expect((await waitCalls(redis)) - before).toBe(2);
      expect(held.filter((r) => /not waited for/.test(r.unacknowledged?.message ?? ''))).toHaveLength(9);
    });
  }, 30_000);

  it('a burst made before any WAIT answered queues at most MAX_PENDING_WAITS of them', async () => {
    const { redis, replica } = acked;
    await replica.whileFrozen(async () => {
      const before = await waitCalls(redis);
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => write(redis, `{gate}:q${i}`)));
      expect((await waitCalls(redis)) - before).toBe(MAX_PENDING_WAITS);
      expect(burst.every((r) => r.reply === 'OK' && r.unacknowledged)).toBe(true);
    });
  }, 30_000);
});
