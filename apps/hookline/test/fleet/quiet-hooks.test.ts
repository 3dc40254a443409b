import { startReceiver, waitUntil, type Receiver } from '@hookline/testing';
import type { SpawnedProcess } from '@hookline/testing';
import { useHookline } from './harness';

const callIdsByPath = (receiver: Receiver) => {
  const byPath = new Map<string, string[]>();
  for (const r of receiver.requests) {
    const id = (JSON.parse(r.body.toString('utf8')) as { call_id: string }).call_id;
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), id]);
  }
  return byPath;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Most hooks of a phone system are quiet (an event now and then), a few are busy. Every hook, whichever
// process serves it and however often it wakes, gets its events one at a time and in publish order.
describe('quiet and busy hooks across worker processes', () => {
  const h = useHookline();

  it('one request in flight per hook and publish order, 200 quiet + 5 busy hooks, processes joining and leaving', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 5 }));
    h.ctx.closeLater(receiver);
    const quiet = await Promise.all(
      Array.from({ length: 20 }, async (_, a) => {
        const account = await h.account(`quiet-${a}`);
        for (let i = 0; i < 10; i++) await h.hook(account.id, { url: receiver.url(`/q/${a}/${i}`) });
        return account;
      }),
    );
    const busy = await Promise.all(
      Array.from({ length: 5 }, async (_, b) => {
        const account = await h.account(`busy-${b}`);
        await h.hook(account.id, { url: receiver.url(`/b/${b}`) });
        return account;
      }),
    );
    const fleet: SpawnedProcess[] = [h.spawnWorker()];
    await fleet[0]!.waitForOutput('worker started');
    const changes: Record<number, () => void> = {
      10: () => fleet.push(h.spawnWorker(), h.spawnWorker()),
      25: () => fleet[0]!.kill('SIGTERM'),
      40: () => fleet.push(h.spawnWorker()),
      55: () => fleet[1]!.kill('SIGTERM'),
    };
    const ROUNDS = 70;
    for (let round = 0; round < ROUNDS; round++) {
      changes[round]?.();
      const publishes = busy.map((account) => h.publish(account.id, { call_id: `busy-${round}` }));
      // Each quiet account (10 hooks) gets an event every 10th round: every hook sleeps between its events.
      const account = quiet[round % quiet.length]!;
      if (round % 10 < 7) publishes.push(h.publish(account.id, { call_id: `quiet-${round}` }));
      await Promise.all(publishes);
      await sleep(40);
    }
    const quietEvents = Array.from({ length: ROUNDS }, (_, r) => r).filter((r) => r % 10 < 7).length;
    const expected = ROUNDS * busy.length + quietEvents * 10;
    await receiver.waitFor(expected, 60_000);
    expect(receiver.requests).toHaveLength(expected);
    expect(receiver.maxInFlightPerPath).toBe(1);
    const byPath = callIdsByPath(receiver);
    for (let b = 0; b < busy.length; b++)
      expect(byPath.get(`/b/${b}`)).toEqual(Array.from({ length: ROUNDS }, (_, r) => `busy-${r}`));
    for (let a = 0; a < quiet.length; a++) {
      const rounds = Array.from({ length: ROUNDS }, (_, r) => r).filter((r) => r % 20 === a && r % 10 < 7);
      for (let i = 0; i < 10; i++)
        expect(byPath.get(`/q/${a}/${i}`) ?? []).toEqual(rounds.map((r) => `quiet-${r}`));
    }
  }, 120_000);

  it('a worker process serving 500 hooks at once holds no more than 8 Redis connections', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 4000 }));
    h.ctx.closeLater(receiver);
    const accounts = await Promise.all(
      Array.from({ length: 50 }, async (_, a) => {
        const account = await h.account(`wide-${a}`);
        for (let i = 0; i < 10; i++) await h.hook(account.id, { url: receiver.url(`/w/${a}/${i}`) });
        return account;
      }),
    );
    const worker = h.spawnWorker();
    await worker.waitForOutput('worker started');
    await Promise.all(accounts.map((account) => h.publish(account.id)));
    await waitUntil(async () => receiver.inFlight >= 500, '500 requests in flight at once', 20_000);
    const clients = (await h.ctx.redis.client('LIST')) as string;
    const own = clients
      .split('\n')
      .filter((line) => line.includes(` name=hookline-worker-${worker.child.pid} `));
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThanOrEqual(8);
    await receiver.waitFor(500, 20_000);
  }, 60_000);
});
