import { startReceiver, type Receiver } from '@hookline/testing';
import { useHookline } from './harness';

const callIds = (receiver: Receiver) =>
  receiver.requests.map((r) => (JSON.parse(r.body.toString('utf8')) as { call_id: string }).call_id);

// More busy hooks than slots: a hook whose queue never empties must not keep its slot for ever. After its
// tenure it gives the slot to a waiting hook and queues up again behind it.
describe('slots when every one is taken', () => {
  const h = useHookline();

  it('a waiting hook gets the only slot before the busy hook holding it has drained', async () => {
    const EVENTS = 40;
    const hooks = await Promise.all(
      ['first', 'second'].map(async (name) => {
        const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 50 }));
        h.ctx.closeLater(receiver);
        const account = await h.account(name);
        await h.hook(account.id, { url: receiver.url() });
        return { account, receiver };
      }),
    );
    const expected = Array.from({ length: EVENTS }, (_, i) => `call-${i}`);
    for (const callId of expected)
      for (const { account } of hooks) await h.publish(account.id, { call_id: callId });
    // One slot; each backlog takes ~2 s to deliver, twice the 1 s a hook keeps a slot others wait for.
    h.startWorker({ HOOKLINE_WORKER_MAX_HOOKS: 1 });
    await Promise.all(hooks.map(({ receiver }) => receiver.waitFor(EVENTS, 30_000)));

    for (const { receiver } of hooks) {
      expect(callIds(receiver)).toEqual(expected);
      expect(receiver.maxInFlight).toBe(1);
    }
    const [early, late] = [...hooks].sort(
      (a, b) => a.receiver.requests[0]!.receivedAt - b.receiver.requests[0]!.receivedAt,
    );
    expect(late!.receiver.requests[0]!.receivedAt).toBeLessThan(early!.receiver.requests.at(-1)!.receivedAt);
  }, 40_000);
});
