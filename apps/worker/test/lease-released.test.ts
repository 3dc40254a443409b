import { startReceiver, waitUntil } from '@hookline/testing';
import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// On one Redis, the script that records a delivered outcome and finds the hook's queue empty gives the hook's
// lease back too: a quiet hook's event costs no release of its own. The hook may then be signalled and claimed
// again, by the same worker, before the holding that delivered the last event has ended: it is served anew.
describe("a hook's lease, given back by the outcome that empties its queue", () => {
  const rig = useWorkerRig('lease-released');

  const leaseHolder = (hookId: string) => rig.ctx.redis.hget(rig.keys.hookLeaseHolders(), hookId);

  it('is gone once the outcome is recorded, in the same script; a failure keeps it until the holding lets go', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    const heldAfterOutcome: (string | null)[] = [];
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (hookId, ...rest) => {
        const done = await ledger.finishAndComplete(hookId, ...rest);
        // Read before the worker sees the reply: nothing but the script can have given the lease back yet.
        heldAfterOutcome.push(await leaseHolder(hookId));
        return done;
      },
    });
    rig.startWorker(attempts);
    const { account, hook } = await rig.hookOnReceiver(store, 'Quiet');
    await rig.publish(account.id, 'first');
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 1, 'the outcome recorded', 10_000);
    await waitUntil(async () => (await leaseHolder(hook.id)) === null, 'the lease given back', 10_000);

    expect(heldAfterOutcome).toEqual([null]);
    expect(await rig.ctx.redis.zscore(rig.keys.hookLeases(), hook.id)).toBeNull();
    expect(await rig.ctx.redis.zscore(rig.keys.readyHooks(), hook.id)).toBeNull();

    // A failed outcome is written to the outcome stream after its script: the lease stays until then.
    await rig.receiver.close();
    rig.receiver = await startReceiver(() => ({ kind: 'status', status: 500 }));
    await store.hooks.update(account.id, hook.id, { url: rig.receiver.url() }, 'operator');
    await rig.publish(account.id, 'second');
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 2, 'the failure recorded', 10_000);
    await waitUntil(async () => (await leaseHolder(hook.id)) === null, 'the lease given back', 10_000);

    expect(heldAfterOutcome).toHaveLength(2);
    expect(heldAfterOutcome[1]).not.toBeNull();
    expect((await rig.recorded(hook.id)).map((r) => r.outcome)).toEqual(['delivered', 'failed']);
  }, 30_000);

  it('claimed again by the same worker before the holding ended: served anew at once, not after the lease', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    const { account, hook } = await rig.hookOnReceiver(store, 'Claimed again');
    let held = false;
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (hookId, ...rest) => {
        const done = await ledger.finishAndComplete(hookId, ...rest);
        if (!held && done.released) {
          held = true;
          // The lease is back; the next event's signal reaches this worker, which claims the hook while the
          // holding that delivered the first event has not seen this reply yet.
          await rig.publish(account.id, 'second');
          await waitUntil(async () => (await leaseHolder(hookId)) !== null, 'claimed again', 5_000);
        }
        return done;
      },
    });
    // Leases far longer than the wait below: a hook claimed and left unserved would wait for its expiry.
    rig.startWorker(attempts, { leaseMs: 120_000 });
    await rig.publish(account.id, 'first');
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 2, 'both outcomes recorded', 10_000);

    expect(held).toBe(true);
    expect(rig.callIdsReceived()).toEqual(['first', 'second']);
    expect(rig.receiver.maxInFlight).toBe(1);
    await waitUntil(async () => (await leaseHolder(hook.id)) === null, 'the lease given back', 10_000);
  }, 30_000);
});
