import { waitUntil } from '@hookline/testing';
import { useWorkerRig, withOutcomeGate } from './support/worker-rig';

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
    await waitUntil(
      async () => (await rig.recorded(hook.id)).length === 2,
      'both events recorded in the history outbox',
      15000,
    );

    expect(refused).toBeGreaterThan(1);
    expect(rig.callIdsReceived()).toEqual(['first', 'second']);
    expect((await rig.recorded(hook.id)).map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['first', 'delivered'],
      ['second', 'delivered'],
    ]);
  }, 30000);
});
