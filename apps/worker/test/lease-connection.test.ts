import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { HookQueues, redisKeys, requireReplicaAcks } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, uniquePrefix, useRedisPair, waitUntil } from '@hookline/testing';
import { startWorker } from '../src';

const HOOKS = 30;
const FROZEN_MS = 20_000;

// With HOOKLINE_REDIS_REPLICA_ACKS, every mark waits on its connection for the replica (WAIT, up to 1 s a
// try). While the replica does not answer, as in a failover until a replica is back, a worker's holdings keep
// such WAITs queued one behind another: lease renewals and lock extensions sent on the same connection
// arrived after the leases and locks had expired. Every holding of the process stopped (the Sentinel failover
// test saw "leases found lost at renewal" in each failover), and a job whose lock lapsed was taken over and
// its event, marked but never sent, recorded `unknown`. Leases and locks have a connection of their own then.
// And the marks' WAITs no longer queue one behind another (ack-gate.ts): before, a holding's mark waited
// behind the 29 others' for up to 30 s a try, and 10–15 of the 30 holdings were given up as stuck.
describe('a worker whose replica does not acknowledge for a while', () => {
  const acked = useRedisPair((redis) => requireReplicaAcks(redis, 1));

  it('lets no lease or lock expire and no holding get stuck, and delivers and records each event once, in order, when the replica is back', async () => {
    const { redis } = acked;
    const keys = redisKeys(uniquePrefix('lease-conn'));
    const hookQueues = new HookQueues(redis, keys);
    const store = createStore({ redis, keys, secretBox: SecretBox.fromKey(randomBytes(32)), hookQueues });
    const receiver = await startReceiver();
    const producer = new Producer({ redis, keys, erasureTags: store.erasureTags });
    const hookIds: string[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const account = await store.accounts.create({ name: `Account ${i}` });
      const hook = await store.hooks.create(account.id, { url: receiver.url(), format: 'json' }, 'operator');
      hookIds.push(hook.id);
      for (const n of [1, 2])
        await producer.publish(account.id, {
          type: 'call_created',
          data: { ...SAMPLE_CALL_DATA, call_id: `h${i}-${n}` },
        });
    }

    const { replica } = acked;
    const errors: string[] = [];
    replica.freeze();
    const worker = startWorker({
      config: {
        HOOKLINE_DELIVERY_TIMEOUT_MS: 15_000,
        HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
        HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
        HOOKLINE_WORKER_MAX_HOOKS: HOOKS,
      },
      redis,
      keys,
      store,
      metrics: createMetrics(),
      logger: createLogger('error', 'test', { write: (line: string) => void errors.push(line) }),
    });
    const expiredLeases: string[] = [];
    try {
      await waitUntil(async () => (await redis.zcard(keys.hookLeases())) === HOOKS, 'every hook claimed');
      // Nothing can be sent meanwhile: each holding's mark waits for the replica, again and again.
      for (const until = Date.now() + FROZEN_MS; Date.now() < until; await sleep(250)) {
        const leases = await redis.zrange(keys.hookLeases(), 0, -1, 'WITHSCORES');
        const now = Date.now();
        for (let i = 0; i < leases.length; i += 2)
          if (Number(leases[i + 1]) < now) expiredLeases.push(leases[i]!);
      }
      expect(receiver.requests).toHaveLength(0);
    } finally {
      replica.thaw();
    }
    try {
      expect([...new Set(expiredLeases)]).toEqual([]);
      // Each mark's try is answered within about one WAIT, whatever the number of holdings (the connection's
      // gate, ack-gate.ts): no step lasts long enough to be taken for stuck and its hook given up.
      expect(errors.filter((line) => line.includes('never ended'))).toEqual([]);
      await waitUntil(() => receiver.requests.length >= HOOKS * 2, 'every event delivered', 60_000);
      await sleep(500);
      const ids = receiver.requests.map(
        (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
      );
      expect(ids).toHaveLength(HOOKS * 2);
      for (let i = 0; i < HOOKS; i++)
        expect(ids.filter((id) => id.startsWith(`h${i}-`))).toEqual([`h${i}-1`, `h${i}-2`]);
      // Recorded as they went: nothing `unknown`.
      for (const hookId of hookIds) {
        const records = await redis.lrange(keys.hookHistoryOutbox(hookId), 0, -1);
        expect(records.map((r) => (JSON.parse(r) as { outcome: string }).outcome)).toEqual([
          'delivered',
          'delivered',
        ]);
      }
    } finally {
      await worker.close();
      await producer.close();
      await receiver.close();
    }
  }, 120_000);
});
