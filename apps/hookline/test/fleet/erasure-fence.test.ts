import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  /** An HTTP tier of its own, and a POST to the account's routes through it. */
  async function apiOf(accountId: string) {
    const { base } = await startHttpTier(h.ctx, {
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: h.secretKeyHex,
    });
    return (path: string, body: unknown) =>
      fetch(`${base}/v1/accounts/${accountId}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
  }

  it('stops an event of the number (recorded erased, never sent) and sends the others', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/in') });
    const post = await apiOf(account.id);
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

  // An OAuth 2.0 hook marks its attempt, then waits for its token (up to the whole deadline): an erasure
  // accepted meanwhile must still stop the request, which has not started.
  it('stops an event whose worker was waiting for an OAuth 2.0 token when the erasure was accepted', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const waiting: ServerResponse[] = [];
    const tokens = createServer((req, res) => {
      req.resume();
      req.on('end', () => waiting.push(res));
    });
    await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r));
    h.ctx.onCleanup(() => {
      for (const res of waiting) res.destroy();
      return new Promise((r) => tokens.close(r));
    });
    const account = await h.account();
    const hook = await h.hook(account.id, {
      url: receiver.url('/in'),
      auth: {
        scheme: 'oauth2',
        token_url: `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`,
        client_id: 'hookline',
        client_secret: 's3cret-s3cret',
      },
    });
    const post = await apiOf(account.id);
    await h.spawnWorker().waitForOutput('worker started');
    const event = {
      type: 'call_created',
      data: {
        call_id: 'while-token',
        direction: 'inbound',
        from: NUMBER,
        from_cnam: 'X',
        to: '+4420',
        rate: '0.0',
      },
    };
    expect((await post('/events', event)).status).toBe(202);
    await waitUntil(async () => waiting.length === 1 || undefined, 'the worker asking for a token');

    expect((await post('/erasures', { number: NUMBER })).status).toBe(202);
    waiting[0]!.setHeader('content-type', 'application/json');
    waiting[0]!.end(JSON.stringify({ access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 }));

    const records = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 1 ? log : undefined;
    }, 'the event recorded');
    expect(records.map((r) => [r.call_id ?? null, r.outcome])).toEqual([[null, 'erased']]);
    expect(receiver.requests).toEqual([]);
  });
});
