import { hookQueueLayout } from '@hookline/redis';
import type { AttemptLedger } from '@hookline/store';
import { startReceiver, waitUntil } from '@hookline/testing';
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

  // The same, found by a lock extension during the request: the holding is lost then, before its delivery
  // ends. It kept the lease (only a delivery ending `lost` gave it back), and the hook waited for it to expire.
  it('is given back at once when a lock extension finds the job lock gone during the request', async () => {
    const store = rig.store();
    let lockGone = 0;
    rig.receiver = await startReceiver((_req, index) => {
      if (index === 0) void removeLocks().then((n) => (lockGone = n));
      // Longer than a lock extension's period (700 ms with a 3.5 s lock): one finds the lock gone.
      return { kind: 'status', status: 200, ...(index === 0 ? { delayMs: 900 } : {}) };
    });
    const { account, hook } = await rig.hookOnReceiver(store, 'Stalled');
    const layout = hookQueueLayout(rig.keys, hook.id);
    const removeLocks = async () => {
      const locks = await rig.ctx.redis.keys(layout.jobLock('*'));
      return locks.length === 0 ? 0 : rig.ctx.redis.del(...locks);
    };
    rig.startWorker(store.attempts, { leaseMs: 120_000, lockMs: 3500 });

    await rig.publish(account.id, 'first');
    await rig.publish(account.id, 'second');
    // Sent once: its outcome fenced, the next taking finds it marked by another token and records `unknown`.
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 2, 'both events recorded', 20_000);
    expect(lockGone).toBe(1);
    expect(rig.callIdsReceived()).toEqual(['first', 'second']);
    expect((await rig.recorded(hook.id)).map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['first', 'unknown'],
      ['second', 'delivered'],
    ]);
  }, 40_000);
});
