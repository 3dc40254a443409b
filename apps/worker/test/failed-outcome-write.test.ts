import { waitUntil } from '@hookline/testing';
import { useWorkerRig, withOutcomeGate } from './support/worker-rig';

// A Redis failover can fail the write of an outcome after the request left: the job stays active under its
// lock, with the attempt marked. The worker gives the hook up, and claims it again moments later in the same
// process. That new taking must not pass for the old one (the scripts hand a job back, and allow a send, to
// the caller showing the lock's own token): the event reached the endpoint once and must never go again.
describe('an outcome that could not be written', () => {
  const rig = useWorkerRig('failed-write');

  it('is never sent again by the same process when it takes the hook again', async () => {
    const store = rig.store();
    let failures = 0;
    const attempts = withOutcomeGate(store.attempts, () => {
      // The first outcome's write fails, as it does while a primary is down and no replica promoted yet.
      if (failures === 0) {
        failures += 1;
        throw new Error("READONLY You can't write against a read only replica.");
      }
    });
    // The write is not tried again here: the job is left active, as when Redis stays away past the retries.
    rig.startWorker(attempts, { lockMs: 3500, outcomeRetryMs: 0 });

    const { account, hook } = await rig.hookOnReceiver(store, 'Failover');
    await rig.publish(account.id, 'first');
    await rig.receiver.waitFor(1);
    await rig.publish(account.id, 'second');
    await waitUntil(
      async () => (await rig.recorded(hook.id)).length === 2,
      'both events recorded in the history outbox',
      20000,
    );

    expect(rig.callIdsReceived()).toEqual(['first', 'second']);
    // Once each: the first as `unknown` (the take-over cannot know it arrived), the second delivered.
    expect((await rig.recorded(hook.id)).map((r) => [r.event_fields.call_id, r.outcome]).sort()).toEqual([
      ['first', 'unknown'],
      ['second', 'delivered'],
    ]);
    expect(failures).toBe(1);
  }, 30000);
});
