import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

const callIds = (bodies: readonly Buffer[]) =>
  bodies.map((b) => (JSON.parse(b.toString('utf8')) as { call_id: string }).call_id);

describe('one at a time per hook, in order', () => {
  const h = useHookline();

  it('delivers 50 events to a slow endpoint one at a time, in publish order', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 50 }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url() });
    // Two worker instances attached to the same queue must still keep one request in flight.
    h.startWorker();
    h.startWorker();
    const published: string[] = [];
    for (let i = 0; i < 50; i++) {
      published.push(`call-${i}`);
      await h.publish(account.id, { call_id: `call-${i}` });
    }
    await receiver.waitFor(50, 30000);
    expect(receiver.maxInFlight).toBe(1);
    expect(callIds(receiver.requests.map((r) => r.body))).toEqual(published);
    for (let i = 1; i < receiver.requests.length; i++)
      expect(receiver.requests[i]!.receivedAt).toBeGreaterThanOrEqual(receiver.requests[i - 1]!.finishedAt!);
  });

  it('gives every hook of the account every event, and a hanging hook does not hold up the other', async () => {
    const healthy = await startReceiver();
    const hanging = await startReceiver(() => ({ kind: 'hang' }));
    h.ctx.closeLater(healthy);
    h.ctx.closeLater(hanging);
    const account = await h.account();
    const slowHook = await h.hook(account.id, { url: hanging.url() });
    await h.hook(account.id, { url: healthy.url() });
    h.startWorker({ HOOKLINE_DELIVERY_TIMEOUT_MS: 3000 });
    for (let i = 0; i < 5; i++) {
      const answer = await h.publish(account.id, { call_id: `c${i}` });
      expect(answer.hooks).toHaveLength(2);
    }
    // All five reach the healthy hook while the first request to the other is still hanging.
    await healthy.waitFor(5, 2500);
    expect(hanging.requests).toHaveLength(1);
    expect(hanging.inFlight).toBe(1);
    expect(await h.deliveries(slowHook.id)).toHaveLength(0);
  });

  it('does not give an event to a hook created after it was published', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const first = await h.hook(account.id, { url: receiver.url('/first') });
    const answer = await h.publish(account.id, { call_id: 'before' });
    const late = await h.hook(account.id, { url: receiver.url('/late') });
    expect(answer.hooks).toEqual([first.id]);
    h.startWorker();
    await h.publish(account.id, { call_id: 'after' });
    await waitUntil(() => receiver.requests.length === 3, 'three deliveries');
    const lateBodies = receiver.requests.filter((r) => r.path === '/late').map((r) => r.body);
    expect(callIds(lateBodies)).toEqual(['after']);
    await waitUntil(
      async () => (await h.deliveries(late.id)).length === 1,
      'the late hook to record its one delivery',
    );
  });
});
