import { randomBytes } from 'node:crypto';
import { Producer } from '@hookline/queue';
import { createRedis, HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { uniquePrefix, useRedisCluster } from '@hookline/testing';
import { eraseIdempotency } from '../src/erasures/erasure-steps';

// An erasure's idempotency step on a real Redis Cluster of three masters. Each account's fingerprints live in
// its own slot, so accounts spread over the masters put fingerprints on every shard: the step must find each
// account's wherever they are, not only on the node a keyless SCAN happens to be sent to.

jest.setTimeout(60000);

const shared = useRedisCluster(({ nodes }) => createRedis({ REDIS_URL: '', REDIS_CLUSTER_NODES: nodes }));

/** The port of the master serving a key's slot. */
async function masterPortOf(key: string): Promise<number> {
  const { redis } = shared;
  const slots = (await redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', key));
  return slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
}

describe('erasure on a Redis Cluster', () => {
  it('removes the idempotency keys of erased events on every master, and only those', async () => {
    const { redis } = shared;
    const keys = redisKeys(uniquePrefix('erasure-cluster'));
    const hookQueues = new HookQueues(redis, keys);
    const store = createStore({ redis, keys, secretBox: SecretBox.fromKey(randomBytes(32)), hookQueues });
    const producer = new Producer({ redis, keys, erasureTags: store.erasureTags });
    try {
      // Two accounts on each master.
      const byMaster = new Map<number, string[]>();
      while ([...byMaster.values()].filter((ids) => ids.length >= 2).length < 3) {
        const account = await store.accounts.create({ name: 'Acme Telecom' });
        const port = await masterPortOf(keys.accountIdempotency(account.id, 'x'));
        const ids = byMaster.get(port) ?? [];
        if (ids.length < 2) byMaster.set(port, [...ids, account.id]);
      }
      const accounts = [...byMaster.values()].flat();
      expect(byMaster.size).toBe(3);

      for (const accountId of accounts) {
        const call = (callId: string, from: string) => ({
          type: 'call_created',
          id: `idem-${callId}`,
          data: { call_id: callId, direction: 'inbound', from, from_cnam: 'Zelda', to: '+4420', rate: '0.0' },
        });
        const erased = await producer.publish(accountId, call('gone', '+15550100999'));
        await producer.publish(accountId, call('kept', '+15550100111'));
        const target = { kind: 'number', value: '+15550100999' } as const;
        const { id } = await store.erasures.request(accountId, target, 'operator');
        // The earlier steps found this event (in the history): its id is what this step looks for.
        await store.erasures.addEvents(accountId, id, [erased.id]);

        const deps = { redis, keys, erasures: store.erasures };
        const result = await eraseIdempotency(deps, { accountId, erasureId: id, target });
        expect(result).toMatchObject({ place: 'idempotency', count: 1 });
        expect(await redis.exists(keys.accountIdempotency(accountId, 'idem-gone'))).toBe(0);
        expect(await redis.exists(keys.accountIdempotency(accountId, 'idem-kept'))).toBe(1);
      }
    } finally {
      await producer.close();
    }
  });
});
