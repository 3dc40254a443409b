import type { AttemptLedger } from '@hookline/store';
import { waitUntil } from '@hookline/testing';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// On one Redis a quiet hook's lease goes back with its delivered outcome: the outcome's script asked for the
// next job, found none and gave the lease back, so the event costs no release of its own. The holding then
// only ends; a new event's claim by the same process meanwhile must start a new holding, not be taken for the
// ending one's (it would sit on a lease nobody serves until the lease expired).
describe("a quiet hook's lease, given back by its outcome's script", () => {
  const rig = useWorkerRig('lease-released');
  const leaseHolder = (hookId: string) => rig.ctx.redis.hget(rig.keys.hookLeaseHolders(), hookId);

  it('is gone when the outcome is recorded, before the worker says anything more', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    const seen: { released?: true; holder: string | null }[] = [];
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (...args) => {
        const done = await ledger.finishAndComplete(...args);
        seen.push({ holder: await leaseHolder(args[0]), ...(done.leaseReleased ? { released: true } : {}) });
        return done;
      },
    });
    rig.startWorker(attempts);
    const { account, hook } = await rig.hookOnReceiver(store, 'Quiet');
    await rig.publish(account.id, 'one');
    await rig.expectDeliveredOnce(hook.id, ['one']);

    expect(seen).toEqual([{ released: true, holder: null }]);
    expect(await rig.ctx.redis.zscore(rig.keys.hookLeases(), hook.id)).toBeNull();
  }, 30_000);

  it('a claim of the hook while its holding ends is served at once, not after the lease', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let reclaimed = false;
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (...args) => {
        const done = await ledger.finishAndComplete(...args);
        if (done.leaseReleased && !reclaimed) {
          // The reply is read late (the process busy elsewhere): a new event arrives and this very worker claims
          // the hook before the ending holding hears its lease went back.
          reclaimed = true;
          const hookId = args[0];
          const accountId = args[1].account_id;
          await rig.publish(accountId, 'two');
          await waitUntil(async () => (await leaseHolder(hookId)) !== null, 'the hook claimed again', 5_000);
        }
        return done;
      },
    });
    // A lease far longer than the wait below: delivering within it shows the claim was served.
    rig.startWorker(attempts, { leaseMs: 120_000 });
    const { account, hook } = await rig.hookOnReceiver(store, 'Quiet again');
    await rig.publish(account.id, 'one');
    await rig.expectDeliveredOnce(hook.id, ['one', 'two'], 10_000);

    expect(reclaimed).toBe(true);
    // Its queue ran empty again: given back again.
    await waitUntil(async () => (await leaseHolder(hook.id)) === null, 'the lease given back', 5_000);
  }, 30_000);
});
