import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// kill -9 of a worker in the middle of a delivery: never a second send, never a lost event, order kept, and
// the hook carries on within 30 s (lease 10 s; the job lock outlasts the 15 s deadline by 10 s, and whoever
// holds the hook next takes the job over once the lock has expired).
describe('crash safety', () => {
  const h = useHookline();

  const callIdsOf = (r: { body: Buffer }[]) =>
    r.map((x) => (JSON.parse(x.body.toString()) as { call_id: string }).call_id);

  it('killed before the send: another process delivers the event once, in order', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    const doomed = h.spawnWorker('apps/hookline/test/fleet/fixtures/stalling-worker.ts');
    await doomed.waitForOutput('worker started');
    await h.publish(account.id, { call_id: 'first' });
    await h.publish(account.id, { call_id: 'second' });
    await doomed.waitForOutput('stalling before sending');
    doomed.kill('SIGKILL');
    await doomed.exited;

    const survivor = h.spawnWorker();
    await survivor.waitForOutput('worker started');
    await receiver.waitFor(2, 30000);
    expect(callIdsOf(receiver.requests)).toEqual(['first', 'second']);
    const log = await waitUntil(async () => {
      const l = await h.deliveries(hook.id);
      return l.length === 2 ? l : undefined;
    }, 'both outcomes');
    expect(log.map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
  }, 60000);

  it('killed during the send: the event is recorded unknown and never sent again; the next one follows', async () => {
    const receiver = await startReceiver((_req, i) =>
      i === 0 ? { kind: 'hang' } : { kind: 'status', status: 200 },
    );
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    const doomed = h.spawnWorker();
    await doomed.waitForOutput('worker started');
    await h.publish(account.id, { call_id: 'in-flight' });
    await h.publish(account.id, { call_id: 'next' });
    await receiver.waitFor(1);
    doomed.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();

    const survivor = h.spawnWorker();
    await survivor.waitForOutput('worker started');
    await receiver.waitFor(2, 30000);
    expect(Date.now() - killedAt).toBeLessThan(30000);
    expect(callIdsOf(receiver.requests)).toEqual(['in-flight', 'next']);
    const log = await waitUntil(async () => {
      const l = await h.deliveries(hook.id);
      return l.length === 2 ? l : undefined;
    }, 'both outcomes');
    expect(log.map((r) => r.outcome)).toEqual(['delivered', 'unknown']);
  }, 60000);

  it("killed during the send of the hook's last event: recorded unknown with no further event", async () => {
    const receiver = await startReceiver(() => ({ kind: 'hang' }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    const doomed = h.spawnWorker();
    await doomed.waitForOutput('worker started');
    await h.publish(account.id, { call_id: 'last' });
    await receiver.waitFor(1);
    doomed.kill('SIGKILL');
    await doomed.exited;

    const survivor = h.spawnWorker();
    await survivor.waitForOutput('worker started');
    // Nothing else is published: the stalled job alone must bring a worker back to the hook.
    const log = await waitUntil(
      async () => {
        const l = await h.deliveries(hook.id);
        return l.length === 1 ? l : undefined;
      },
      'the interrupted attempt to be recorded',
      30000,
    );
    expect(log.map((r) => r.outcome)).toEqual(['unknown']);
    expect(receiver.requests).toHaveLength(1);
  }, 60000);

  it('SIGTERM lets the request in flight finish, then exits 0 without starting the next', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 1500 }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    const worker = h.spawnWorker();
    await worker.waitForOutput('worker started');
    await h.publish(account.id, { call_id: 'in-flight' });
    await h.publish(account.id, { call_id: 'later' });
    await receiver.waitFor(1);
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    const log = await h.deliveries(hook.id);
    expect(log.map((r) => r.outcome)).toEqual(['delivered']);
    expect(receiver.requests).toHaveLength(1);
    expect(await h.hookQueues.waitingCount(hook.id)).toBe(1);
  }, 30000);
});
