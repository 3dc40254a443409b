import { waitUntil, startReceiver } from '@hookline/testing';
import type { AttemptLedger } from '@hookline/store';
import { ledgerWith, useWorkerRig } from './support/worker-rig';

// A hook's first job is taken and marked by one script; with events waiting, the script that records an
// outcome and completes its job also takes the next job and marks its attempt: each request leaves with no
// round trip before it. Not after an outcome the suspension monitor must be told of (written to the outcome
// stream after the script): that next job is marked by its own `begin`, so that nothing on Redis stands
// between a mark and its request.
describe("a hook's events, marked by the script that takes them", () => {
  const rig = useWorkerRig('next-marked');

  it('leaves without a begin of its own, in order, each recorded once; after a failure it begins itself', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    const begun: string[] = [];
    const attempts = ledgerWith(ledger, {
      begin: (hookId, marker, ...rest) => {
        begun.push(marker);
        return ledger.begin(hookId, marker, ...rest);
      },
    });
    // The first request is held, so the others wait in the queue; the second is refused.
    await rig.receiver.close();
    rig.receiver = await startReceiver((_req, index) =>
      index === 0
        ? { kind: 'status', status: 200, delayMs: 400 }
        : { kind: 'status', status: index === 1 ? 500 : 200 },
    );
    rig.startWorker(attempts);
    const { account, hook } = await rig.hookOnReceiver(store, 'Busy');
    for (const callId of ['c1', 'c2', 'c3', 'c4']) await rig.publish(account.id, callId);
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 4, 'four outcomes recorded', 10_000);

    expect(rig.callIdsReceived()).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(rig.receiver.maxInFlight).toBe(1);
    const records = (await rig.ctx.redis.lrange(rig.keys.hookHistoryOutbox(hook.id), 0, -1)).map(
      (entry) =>
        JSON.parse(entry) as { event_id: string; event_fields: { call_id: string }; outcome: string },
    );
    expect(records.map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['c1', 'delivered'],
      ['c2', 'failed'],
      ['c3', 'delivered'],
      ['c4', 'delivered'],
    ]);
    const callOf = new Map(records.map((r) => [r.event_id, r.event_fields.call_id]));
    // c1 was marked by its take, c2 by c1's outcome script, c4 by c3's; c3 followed a failure.
    expect(begun.map((id) => callOf.get(id))).toEqual(['c3']);
    expect(await rig.ctx.redis.get(rig.keys.hookAttempt(hook.id))).toBe(`${records[3]!.event_id}:done`);
  }, 30_000);

  it('a take whose reply is lost after its script ran: taken again by its token, sent once, at once', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let lost = 0;
    const attempts = ledgerWith(ledger, {
      takeAndBegin: async (take) => {
        const taken = await ledger.takeAndBegin(take);
        if (lost > 0 || !taken.begun) return taken;
        // The script ran (the job is active under the token, and marked), its reply never came back.
        lost += 1;
        throw new Error('Connection is closed.');
      },
    });
    // A lock far longer than the wait below: delivering within it shows nobody waited for it.
    rig.startWorker(attempts, { lockMs: 60_000 });
    const { account, hook } = await rig.hookOnReceiver(store, 'Lost reply');
    await rig.publish(account.id, 'only');
    await rig.expectDeliveredOnce(hook.id, ['only'], 10_000);

    expect(lost).toBe(1);
  }, 30_000);

  // In a failover a mark's call can fail after its script ran, and the next calls fail too for a while (the
  // Cluster client's own retries ran out before the promotion). Asked again by the same holder it is told to
  // send; given up, the job waited out its lock marked and was recorded `unknown`, never sent.
  it('a mark whose call fails after its script ran, then for a while: asked again, sent once, recorded once', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let calls = 0;
    const attempts = ledgerWith(ledger, {
      // The take's own mark is not handed on (as when no replica acknowledged it): the delivery marks it.
      takeAndBegin: async (take) => ({ jobReply: (await ledger.takeAndBegin(take)).jobReply }),
      begin: async (...args) => {
        calls += 1;
        if (calls === 1) {
          await ledger.begin(...args); // written, its reply lost
          throw new Error('Connection is closed.');
        }
        if (calls <= 3)
          throw new Error('Too many Cluster redirections. Last error: Error: Connection is closed.');
        return ledger.begin(...args);
      },
    });
    // A short lock: given up, the take-over would come (and record `unknown`) within the wait below.
    rig.startWorker(attempts, { lockMs: 5_000 });
    const { account, hook } = await rig.hookOnReceiver(store, 'Mark reply lost');
    await rig.publish(account.id, 'only');
    await rig.expectDeliveredOnce(hook.id, ['only'], 15_000);

    expect(calls).toBe(4);
  }, 30_000);
});
