import { setTimeout as sleep } from 'node:timers/promises';
import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig, withOutcomeGate } from './support/worker-rig';

// While a Redis primary is being replaced, writing an outcome fails for a few seconds after the request
// left. The worker keeps trying (write-retry.ts) instead of leaving the job to a take-over that would record
// `unknown` for a request the endpoint answered 200.
describe('an outcome write that fails for a while', () => {
  const rig = useWorkerRig('outcome-retry');

  it('is recorded as delivered once Redis takes writes again, and the hook carries on', async () => {
    const store = rig.store();
    let refused = 0;
    let writesRefusedUntil = 0;
    const attempts = withOutcomeGate(store.attempts, () => {
      // The first outcome's writes fail for 1.5 s, as while a replica is being promoted.
      writesRefusedUntil ||= Date.now() + 1500;
      if (Date.now() < writesRefusedUntil) {
        refused += 1;
        throw new Error('CLUSTERDOWN The cluster is down');
      }
    });
    rig.startWorker(attempts);

    const { account, hook } = await rig.hookOnReceiver(store, 'Failover');
    for (const callId of ['first', 'second']) await rig.publish(account.id, callId);
    await rig.expectDeliveredOnce(hook.id, ['first', 'second']);
    expect(refused).toBeGreaterThan(1);
  }, 30000);

  // With replica acknowledgements, a write queued behind other WAITs on its connection during a failover
  // fails only after seconds: the budget runs from that failure, not from the call (which spent it waiting).
  it('keeps trying after a first write that failed only once longer than the budget had passed', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let calls = 0;
    const attempts = ledgerWith(ledger, {
      finishAndComplete: async (...args) => {
        calls += 1;
        if (calls === 1) {
          await sleep(1500);
          throw new Error('1 replica acknowledgement required (HOOKLINE_REDIS_REPLICA_ACKS), 0 received');
        }
        return ledger.finishAndComplete(...args);
      },
    });
    rig.startWorker(attempts, { outcomeRetryMs: 1000 });

    const { account, hook } = await rig.hookOnReceiver(store, 'Slow failure');
    for (const callId of ['first', 'second']) await rig.publish(account.id, callId);
    await rig.expectDeliveredOnce(hook.id, ['first', 'second']);
    expect(calls).toBeGreaterThan(2);
  }, 30000);
});
