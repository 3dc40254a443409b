import { startReceiver, waitUntil } from '@hookline/testing';
import { startHttpTier } from '../support/http-tier';
import { useHookline } from './harness';

// The fence across processes: the API marks an erasure's tags, a worker process tags the event it is about to
// send, and the two must agree (each derives its tag key from HOOKLINE_SECRET_KEY). No monitor runs, so the
// erasure stays running and only the fence stands between the event and the endpoint.
describe("an erasure accepted by the API, and a worker process's events", () => {
  const h = useHookline();
  const NUMBER = '+15550100777';
  const API_KEY = 'k'.repeat(32);

  it('stops an event of the number (recorded erased, never sent) and sends the others', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/in') });
    const { base } = await startHttpTier(h.ctx, {
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: h.secretKeyHex,
    });
    const post = (path: string, body: unknown) =>
      fetch(`${base}/v1/accounts/${account.id}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const call = (callId: string, from: string) => ({
      type: 'call_created',
      data: { call_id: callId, direction: 'inbound', from, from_cnam: 'Someone', to: '+4420', rate: '0.0' },
    });

    expect((await post('/erasures', { number: NUMBER })).status).toBe(202);
    expect((await post('/events', call('of-the-number', NUMBER))).status).toBe(202);
    expect((await post('/events', call('another', '+15550100999'))).status).toBe(202);
    await h.spawnWorker().waitForOutput('worker started');

    await receiver.waitFor(1);
    const records = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 2 ? log : undefined;
    }, 'both events recorded');
    expect(records.map((r) => [r.call_id ?? null, r.outcome])).toEqual([
      ['another', 'delivered'],
      [null, 'erased'],
    ]);
    expect(
      receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id),
    ).toEqual(['another']);
  });
});
