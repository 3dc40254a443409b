import { setTimeout as sleep } from 'node:timers/promises';
import { useRedis, waitUntil } from '@hookline/testing';
import { ConsumerRig, interceptedSource } from '../test-support/consumer-rig';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

// The consumer loop against BullMQ's real scripts on the test's Redis, in one process: each test plays one
// interleaving that the fleet tests met between processes, and checks the three promises — every event once,
// in order, one in flight per hook.
describe('the consumer loop', () => {
  const ctx = useRedis('consumer');
  let rig: ConsumerRig;

  beforeEach(() => {
    rig = new ConsumerRig(ctx.redis, ctx.prefix);
    ctx.onCleanup(() => rig.close());
  });

  async function publish(hookId: string, numbers: number[]): Promise<void> {
    await rig.queues.setUp(hookId);
    for (const n of numbers) await rig.publish(hookId, n);
  }

  it('a take whose reply was lost and resent by the client hands the same job over, once', async () => {
    let lost: string | undefined;
    const source = interceptedSource(rig.jobs(), {
      take: async (call, _hookId, token) => {
        const offer = await call();
        if (lost || offer.kind !== 'job') return offer;
        lost = token;
        // The reply never arrived; the client sends the same call again (same token) after reconnecting.
        return call();
      },
    });
    await publish('hk_a', range(5));
    rig.start('w_1', source);
    await waitUntil(() => rig.numbersOf('hk_a').length === 5 || undefined, 'five deliveries');
    await sleep(200);
    // Handed back to the same call at once (job-adopt.lua knows the token), not taken over after its lock.
    expect(rig.delivered[0]?.token).toBe(lost);
    expect(rig.numbersOf('hk_a')).toEqual(range(5));
    expect(rig.maxInFlight).toBe(1);
  });

  it('a finish-and-fetch whose reply was lost goes on with the job it fetched, never the finished one', async () => {
    let lost = false;
    const source = interceptedSource(rig.jobs(), {
      finish: async (call, _job, _end, fetchNext) => {
        if (lost || !fetchNext) return call();
        lost = true;
        await call(); // applied: the job is finished and the next one active under the same token
        return call(); // the client's resend, which BullMQ refuses: the job is no longer active
      },
    });
    await publish('hk_b', range(5));
    rig.start('w_1', source);
    await waitUntil(() => rig.numbersOf('hk_b').length === 5 || undefined, 'five deliveries');
    await sleep(200);
    expect(lost).toBe(true);
    expect(rig.numbersOf('hk_b')).toEqual(range(5));
    // The second job went on under the token the lost finish fetched it with, without waiting for its lock.
    expect(rig.delivered[1]?.token).toBe(rig.delivered[0]?.token);
  });

  // In a failover the call after a lost reply is usually refused too, for seconds: the job that reply handed
  // over (in a worker, taken and marked by the outcome's script) must still go on under the same token, not
  // wait out its lock for a new taking (which, for a marked job, records `unknown` and never sends it).
  it('a take by its own token that Redis refuses for a while is tried again: the fetched job goes on under that token', async () => {
    let lost = false;
    let refused = 0;
    const source = interceptedSource(rig.jobs(60_000), {
      finish: async (call, _job, _end, fetchNext) => {
        if (lost || !fetchNext) return call();
        lost = true;
        await call(); // applied: the job is finished and the next one active under the same token
        throw new Error('Connection is closed.'); // its reply never came back
      },
      take: async (call) => {
        if (lost && refused < 3) {
          refused += 1;
          throw new Error('CLUSTERDOWN The cluster is down');
        }
        return call();
      },
    });
    await publish('hk_r', range(3));
    rig.start('w_1', source);
    // Far sooner than the 60 s lock a new taking would wait out.
    await waitUntil(() => rig.numbersOf('hk_r').length === 3 || undefined, 'three deliveries', 10_000);
    expect(refused).toBe(3);
    expect(rig.numbersOf('hk_r')).toEqual(range(3));
    expect(rig.delivered[1]?.token).toBe(rig.delivered[0]?.token);
  });

  it('a lease lost mid-delivery: the holder finishes its job and stops; the new holder goes on after it', async () => {
    const leaseMs = 900;
    let stolen = false;
    // One slot, so that the holder does not claim its own hook back while it delivers.
    rig.start('w_a', rig.jobs(), {
      leaseMs,
      maxHooks: 1,
      deliver: async () => {
        if (stolen) return;
        stolen = true;
        // The holder stalls past its lease; another process reclaims the hook and claims it.
        rig.start('w_b', rig.jobs(), { leaseMs });
        await ctx.redis.zadd(rig.keys.hookLeases(), 1, 'hk_c');
        await rig.ready.reclaimExpired();
        await waitUntil(
          async () => (await ctx.redis.hget(rig.keys.hookLeaseHolders(), 'hk_c')) === 'w_b' || undefined,
          'the other holder’s claim',
        );
        await sleep(leaseMs); // the stalled holder's renewal finds the lease gone meanwhile
      },
    });
    await publish('hk_c', range(6));
    await waitUntil(() => rig.numbersOf('hk_c').length === 6 || undefined, 'six deliveries');
    await sleep(200);
    expect(rig.numbersOf('hk_c')).toEqual(range(6));
    expect(rig.maxInFlight).toBe(1);
    // The stale holder took nothing after its job: the next one was the new holder's (later events may be
    // either's, once the new holder has let the hook go).
    expect(rig.delivered.slice(0, 2).map((d) => d.holder)).toEqual(['w_a', 'w_b']);
  });

  it('events that arrive while holders let go and claim again are each delivered once, in order', async () => {
    await rig.queues.setUp('hk_d');
    rig.start('w_1', rig.jobs());
    rig.start('w_2', rig.jobs());
    // Bursts with pauses as long as a delivery: a holder sees the queue empty and lets go just as the next
    // burst signals the hook, again and again.
    let n = 0;
    for (let burst = 0; burst < 25; burst += 1) {
      for (let i = 0; i < 1 + (burst % 4); i += 1) await rig.publish('hk_d', (n += 1));
      await sleep(burst % 3);
    }
    await waitUntil(() => rig.numbersOf('hk_d').length === n || undefined, `${n} deliveries`);
    await sleep(200);
    expect(rig.numbersOf('hk_d')).toEqual(range(n));
    expect(rig.maxInFlight).toBe(1);
  });

  it('an attempt taken back with nothing sent lets go of its job: the next taking sends it, not after the lock', async () => {
    let withdrawn = false;
    // A lock far longer than the test may wait: going on before it expires shows the lock was let go.
    rig.start('w_1', rig.jobs(120_000), {
      deliver: async (job) => {
        if (withdrawn || (JSON.parse(job.data) as { n: number }).n !== 1) return;
        withdrawn = true;
        // What the worker's delivery answers when no replica acknowledged the mark in 15 s (a shard without
        // a replica after a failover): the mark is taken back, nothing was sent.
        return { kind: 'withdrawn', why: 'no replica acknowledged the attempt mark in time; nothing sent' };
      },
    });
    await publish('hk_e', range(3));
    await waitUntil(
      () => rig.numbersOf('hk_e').length === 4 || undefined,
      'the event tried again, then the rest',
    );
    await sleep(200);
    expect(rig.numbersOf('hk_e')).toEqual([1, 1, 2, 3]);
    // Tried again under a taking of its own: the fence of its earlier try no longer holds.
    expect(rig.delivered[1]!.token).not.toBe(rig.delivered[0]!.token);
    expect(rig.maxInFlight).toBe(1);
  });

  it('a holding whose delivery never ends gives its hook up: the hook carries on, never stopped for good', async () => {
    let stuck = false;
    // A lock of 1 s: a step is taken for stuck after 2 s (two locks), the lease (1 s) is then left to expire.
    rig.start('w_1', rig.jobs(1_000), {
      leaseMs: 1_000,
      deliver: async (job) => {
        if (stuck || (JSON.parse(job.data) as { n: number }).n !== 1) return;
        stuck = true;
        // A command that never answers (one lost in a Redis failover): the step never ends, while the
        // consumer goes on renewing leases and locks.
        await new Promise(() => undefined);
      },
    });
    await publish('hk_f', range(3));
    await waitUntil(() => rig.numbersOf('hk_f').length === 3 || undefined, 'the hook to carry on');
    // The stuck step's job is taken over once its lock ran out (a real worker records it `unknown`), then the rest.
    expect(rig.numbersOf('hk_f')).toEqual([1, 2, 3]);
    // Events published after it are delivered too: new signals reach a holder again.
    await rig.publish('hk_f', 4);
    await waitUntil(() => rig.numbersOf('hk_f').length === 4 || undefined, 'a later event');
  });
});
