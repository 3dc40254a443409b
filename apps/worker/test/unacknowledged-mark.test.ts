import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// With HOOKLINE_REDIS_REPLICA_ACKS, a shard that lost its replica in a failover cannot acknowledge an attempt's
// mark until the replica is back: after 15 s the ledger takes the mark back and answers `unacknowledged`,
// nothing sent. The job's lock is still the worker's then; kept, it held the event back for a whole lock more
// (25 s) before anyone could try it again, and hooks took over 30 s to carry on after a promotion.
describe('an attempt mark no replica acknowledged', () => {
  const rig = useWorkerRig('unacked-mark');

  it('lets go of the job: the event is tried again at once, not after its lock, and delivered once', async () => {
    const store = rig.store();
    let refused = 0;
    const ledger = store.attempts as Required<AttemptLedger>;
    const attempts = ledgerWith(ledger, {
      // A take's mark the replicas did not acknowledge is not handed on (the ledger keeps it to itself): the
      // job's own begin marks it again, and waits for them.
      takeAndBegin: async (take) => ({ jobReply: (await ledger.takeAndBegin(take)).jobReply }),
      begin: async (hookId, eventId, fence, tags) => {
        const start = await ledger.begin(hookId, eventId, fence, tags);
        if (refused > 0 || start.kind !== 'send') return start;
        // What the ledger does when the replicas never acknowledged the mark: take it back, send nothing.
        refused += 1;
        await ledger.withdraw(hookId, eventId, fence);
        return { kind: 'unacknowledged' };
      },
    });
    // A lock far longer than the wait below: delivering within it shows the lock was let go.
    rig.startWorker(attempts, { lockMs: 60_000 });

    const { account, hook } = await rig.hookOnReceiver(store, 'Failover');
    await rig.publish(account.id, 'first');
    await rig.publish(account.id, 'second');
    await rig.expectDeliveredOnce(hook.id, ['first', 'second']);
    expect(refused).toBe(1);
  }, 30_000);
});
