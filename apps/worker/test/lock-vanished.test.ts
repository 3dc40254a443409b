import { hookQueueLayout } from '@hookline/redis';
import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// A failover can promote a replica that never got the worker's take: the job waits unlocked at the head of
// its queue, and the holding's mark is refused (the lock is not its token). The holding still has the hook's
// lease; keeping it until it expired and was reclaimed left the hook with no holder at all for about 15 s
// after the promotion (the Sentinel failover test's slowest hooks).
describe('a job whose lock vanished under its holding', () => {
  const rig = useWorkerRig('lock-vanished');

  it('is taken again at once, not after the lease, and delivered once', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let vanished = 0;
    const attempts = ledgerWith(ledger, {
      // The take's mark not handed on: the job's own begin runs, after the take and its mark are undone as
      // the promoted replica would have them.
      takeAndBegin: async (take) => ({ jobReply: (await ledger.takeAndBegin(take)).jobReply }),
      begin: async (hookId, eventId, fence, tags) => {
        if (vanished === 0) {
          vanished += 1;
          const layout = hookQueueLayout(rig.keys, hookId);
          await rig.ctx.redis
            .multi()
            .lrem(layout.active, 0, fence.jobId)
            .rpush(layout.wait, fence.jobId)
            .del(layout.jobLock(fence.jobId))
            .del(rig.keys.hookAttempt(hookId))
            .exec();
        }
        return ledger.begin(hookId, eventId, fence, tags);
      },
    });
    // A lease far longer than the wait below: delivering within it shows the lease was given back.
    rig.startWorker(attempts, { leaseMs: 120_000 });

    const { account, hook } = await rig.hookOnReceiver(store, 'Failover');
    await rig.publish(account.id, 'first');
    await rig.publish(account.id, 'second');
    await rig.expectDeliveredOnce(hook.id, ['first', 'second'], 20_000);
    expect(vanished).toBe(1);
  }, 40_000);
});
