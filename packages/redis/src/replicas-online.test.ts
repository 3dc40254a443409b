import { useRedisPair, waitUntil } from '@hookline/testing';
import { fewestReplicasOnline } from './replicas-online';

// What HOOKLINE_REDIS_REPLICA_ACKS rests on, as the monitor reports it: replicas online beside the primary.
describe('replicas online', () => {
  const pair = useRedisPair();

  it('counts a primary’s replica while it is linked, and none once it is gone', async () => {
    await waitUntil(async () => (await fewestReplicasOnline(pair.redis)) === 1, 'the replica online', 15000);
    await pair.replica.kill();
    await waitUntil(async () => (await fewestReplicasOnline(pair.redis)) === 0, 'the replica gone', 15000);
  }, 40_000);
});
