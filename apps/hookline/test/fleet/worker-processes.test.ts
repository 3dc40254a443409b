import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// The production entry point, three times, against one Redis: the one-in-flight rule and the order hold
// across processes, not just across Worker objects in one process.
describe('a fleet of worker processes', () => {
  const h = useHookline();

  it('keeps one request in flight and publish order with three processes', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 50 }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url() });
    const workers = [h.spawnWorker(), h.spawnWorker(), h.spawnWorker()];
    await Promise.all(workers.map((w) => w.waitForOutput('worker started')));
    const published: string[] = [];
    for (let i = 0; i < 50; i++) {
      published.push(`call-${i}`);
      await h.publish(account.id, { call_id: `call-${i}` });
    }
    await receiver.waitFor(50, 30000);
    expect(receiver.maxInFlight).toBe(1);
    expect(
      receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id),
    ).toEqual(published);
  }, 60000);

  it('keeps order and one in flight while processes join and leave mid-stream', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 20 }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    const fleet = [h.spawnWorker()];
    await fleet[0]!.waitForOutput('worker started');
    const published: string[] = [];
    // Membership changes at fixed points of the stream: two join, the first leaves, one more joins, another leaves.
    const changes: Record<number, () => void> = {
      15: () => fleet.push(h.spawnWorker(), h.spawnWorker()),
      35: () => fleet[0]!.kill('SIGTERM'),
      50: () => fleet.push(h.spawnWorker()),
      65: () => fleet[1]!.kill('SIGTERM'),
    };
    for (let i = 0; i < 80; i++) {
      changes[i]?.();
      published.push(`call-${i}`);
      await h.publish(account.id, { call_id: `call-${i}` });
      await new Promise((r) => setTimeout(r, 15));
    }
    await receiver.waitFor(80, 45000);
    expect(receiver.maxInFlight).toBe(1);
    expect(
      receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id),
    ).toEqual(published);
    expect(await fleet[0]!.exited).toEqual({ code: 0, signal: null });
    // The last outcome is recorded just after the receiver answers.
    const log = await waitUntil(async () => {
      const l = await h.deliveries(hook.id);
      return l.length >= 80 ? l : undefined;
    }, 'all 80 outcomes');
    expect(log).toHaveLength(80);
    expect(log.every((r) => r.outcome === 'delivered')).toBe(true);
  }, 90000);

  it('exits 0 on SIGTERM', async () => {
    const worker = h.spawnWorker();
    await worker.waitForOutput('worker started');
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 30000);
});
