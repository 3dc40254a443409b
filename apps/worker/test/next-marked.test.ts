import { waitUntil, startReceiver } from '@hookline/testing';
import type { PreparedClaim } from '@hookline/redis';
import { ENGINE_SCRIPTS } from '@hookline/scheduler';
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
    const takes: string[] = [];
    const attempts = ledgerWith(ledger, {
      begin: (hookId, marker, ...rest) => {
        begun.push(marker);
        return ledger.begin(hookId, marker, ...rest);
      },
      claimAndTake: async (claim, take) => {
        const answer = await ledger.claimAndTake(claim, take);
        if (answer.took?.begun) takes.push('claim');
        return answer;
      },
      takeAndBegin: async (take) => {
        const taken = await ledger.takeAndBegin(take);
        if (taken.begun) takes.push('take');
        return taken;
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
    // c1 was taken and marked by the claim's script, c2 by c1's outcome script, c4 by c3's; c3 followed a
    // failure. (Signalled while leased, the hook is claimed again once its queue ran empty, and finds nothing.)
    expect(takes).toEqual(['claim']);
    expect(begun.map((id) => callOf.get(id))).toEqual(['c3']);
    expect(await rig.ctx.redis.get(rig.keys.hookAttempt(hook.id))).toBe(`${records[3]!.event_id}:done`);
  }, 30_000);

  it.each(['claimAndTake', 'takeAndBegin'] as const)(
    'a take whose reply is lost after its script ran (%s): taken again by its token, sent once, at once',
    async (lostCall) => {
      const store = rig.store();
      const ledger = store.attempts as Required<AttemptLedger>;
      let lost = 0;
      // ready-claim.lua with the same keys and arguments: the claim alone, no take.
      const takeNothing = async (claim: PreparedClaim) =>
        (await ENGINE_SCRIPTS.readyClaim.run(
          rig.ctx.redis,
          [...claim.keys],
          [...claim.args, claim.hookId],
        )) as string[];
      const loseOnce = <T>(reply: T, begun: unknown): T => {
        if (lost > 0 || !begun) return reply;
        // The script ran (the job is active under the token, and marked), its reply never came back.
        lost += 1;
        throw new Error('Connection is closed.');
      };
      const attempts = ledgerWith(
        ledger,
        lostCall === 'claimAndTake'
          ? {
              claimAndTake: async (claim, take) => {
                const answer = await ledger.claimAndTake(claim, take);
                return loseOnce(answer, answer.took?.begun);
              },
            }
          : {
              // The claim takes nothing: the first take is a script of its own (as on a Redis Cluster).
              claimAndTake: async (claim) => ({ claimed: await takeNothing(claim) }),
              takeAndBegin: async (take) => {
                const taken = await ledger.takeAndBegin(take);
                return loseOnce(taken, taken.begun);
              },
            },
      );
      // A lock far longer than the wait below: delivering within it shows nobody waited for it.
      rig.startWorker(attempts, { lockMs: 60_000 });
      const { account, hook } = await rig.hookOnReceiver(store, 'Lost reply');
      await rig.publish(account.id, 'only');
      await waitUntil(async () => (await rig.recorded(hook.id)).length === 1, 'the outcome recorded', 10_000);

      expect(lost).toBe(1);
      expect(rig.callIdsReceived()).toEqual(['only']);
      expect((await rig.recorded(hook.id)).map((r) => r.outcome)).toEqual(['delivered']);
    },
    30_000,
  );

  it('a claim-and-take that failed before its script ran: the popped hook is signalled again, sent once', async () => {
    const store = rig.store();
    const ledger = store.attempts as Required<AttemptLedger>;
    let failed = 0;
    const attempts = ledgerWith(ledger, {
      claimAndTake: async (claim, take) => {
        if (failed > 0) return ledger.claimAndTake(claim, take);
        // Refused before it ran (the hook was popped from the ready set, and nothing else happened).
        failed += 1;
        throw new Error('ERR the command failed');
      },
    });
    // Leases and locks far longer than the wait below: nothing is waited for until it expires.
    rig.startWorker(attempts, { lockMs: 60_000, leaseMs: 120_000 });
    const { account, hook } = await rig.hookOnReceiver(store, 'Claim refused');
    await rig.publish(account.id, 'only');
    await waitUntil(async () => (await rig.recorded(hook.id)).length === 1, 'the outcome recorded', 10_000);

    expect(failed).toBe(1);
    expect(rig.callIdsReceived()).toEqual(['only']);
  }, 30_000);
});
