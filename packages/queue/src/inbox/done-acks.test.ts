import { redisKeys, requireReplicaAcks } from '@hookline/redis';
import { useRedisPair } from '@hookline/testing';
import { AccountInbox } from './account-inbox';

// `deleteDone` says whether each entry's deletion is on the replicas (HOOKLINE_REDIS_REPLICA_ACKS): the fan-out cuts
// the deduplication keys only then, since a failover that lost the deletion brings the entry back. A primary
// and one replica on ports of their own; the replica frozen so that it acknowledges nothing.
describe('an inbox entry done with replica acknowledgements required', () => {
  const acked = useRedisPair((redis) => requireReplicaAcks(redis, 1));
  const keys = redisKeys(`done-acks-${process.pid}`);

  async function accepted(inbox: AccountInbox, eventId: string): Promise<string> {
    const acceptance = await inbox.accept({
      accountId: 'acct_1',
      event: { id: eventId, type: 'call_created', fields: { call_id: eventId } },
      acceptedAt: Date.now(),
      hooks: ['hk_1'],
      idempotencyTtlSeconds: 60,
      graceMs: 60_000,
      maxAbandoned: 10,
    });
    if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');
    return acceptance.entry.id;
  }

  it('is acknowledged when the replica has the deletion, and said not to be when it does not', async () => {
    const { redis } = acked;
    const inbox = new AccountInbox(redis, keys);
    const first = await accepted(inbox, 'evt_1');
    const second = await accepted(inbox, 'evt_2');
    expect(await inbox.deleteDone([{ accountId: 'acct_1', entryId: first }])).toEqual([true]);

    const { replica } = acked;
    replica.freeze();
    try {
      expect(await inbox.deleteDone([{ accountId: 'acct_1', entryId: second }])).toEqual([false]);
    } finally {
      replica.thaw();
    }
    // Deleted on the primary all the same: only its acknowledgement is missing.
    expect(await redis.xlen(keys.accountInbox('acct_1'))).toBe(0);
  }, 30000);
});
