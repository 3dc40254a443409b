import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '@hookline/testing';
import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// The outcome's script completes the job, and the lock goes with it, while the worker still counts the job as
// its current one: a lock extension in that moment finds no lock. That is the job finishing, not the job lost
// to another holder: taken for lost, the worker kept the hook's lease without serving it, and the hook's next
// events waited for the lease to expire (10 s).
describe('a lock extension while the outcome script completes the job', () => {
  const rig = useWorkerRig('finishing-lock');

  it('does not lose the hook: the next event goes at once', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (...args) => {
        const done = await ledger.finishAndComplete(...args);
        // The reply is slow to come back (a busy worker): extensions, every 700 ms, go out meanwhile.
        await sleep(1500);
        return done;
      },
    });
    rig.startWorker(attempts, { lockMs: 3500 });

    const { account, hook } = await rig.hookOnReceiver(store, 'Finishing');
    await rig.publish(account.id, 'first');
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 1, 'the first recorded', 10_000);
    // The first's holding lets go of the hook once its outcome script has answered.
    await sleep(1700);
    await rig.publish(account.id, 'second');
    await waitUntil(
      async () => rig.callIdsReceived().length === 2,
      'the second event received within the lease it would otherwise wait for',
      5_000,
    );

    expect(rig.callIdsReceived()).toEqual(['first', 'second']);
  }, 30_000);
});
