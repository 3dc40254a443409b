import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver } from '@hookline/testing';
import { useApi } from '../test-support/api-harness';

// A probe (test before re-enabling) of an OAuth 2.0 hook carries a token like any delivery.
describe('probing an OAuth 2.0 hook', () => {
  const api = useApi();

  /** An OAuth 2.0 hook whose tokens come from 127.0.0.1:`tokenPort`, suspended, then re-enabled with a probe. */
  async function probeSuspended(tokenPort: number) {
    const receiver = api.ctx.closeLater(await startReceiver());
    const acct = await api.createAccount();
    const hook = await api.createHook(acct, {
      url: receiver.url('/hook'),
      auth: {
        scheme: 'oauth2',
        token_url: `http://127.0.0.1:${tokenPort}/token`,
        client_id: 'hookline',
        client_secret: 's3cret-value',
      },
    });
    expect(await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
    const res = await api.call('POST', `/v1/accounts/${acct}/hooks/${hook.id}/enable`, {
      held: 'discard',
      probe: true,
    });
    return { res, receiver };
  }

  it('gets a token and sends the probe with it; a 2xx re-enables the hook', async () => {
    let asked = 0;
    const tokens = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        asked += 1;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ access_token: `tok-${asked}`, token_type: 'Bearer', expires_in: 600 }));
      });
    });
    await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r));
    api.ctx.onCleanup(() => new Promise((r) => tokens.close(r)));
    const { res, receiver } = await probeSuspended((tokens.address() as AddressInfo).port);
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('active');
    expect(receiver.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1']);
  });

  it('without a token, says the token endpoint failed and the endpoint got nothing, in words', async () => {
    // A port nothing listens on: the token request is refused.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const { res, receiver } = await probeSuspended(port);

    expect(res.statusCode).toBe(409);
    const { error, attempt } = res.json();
    expect(error.code).toBe('PROBE_FAILED');
    expect(error.message).toBe(
      'The test event was not delivered: no OAuth 2.0 token could be had: the token endpoint refused the ' +
        'connection; nothing was sent to the endpoint; the hook stays suspended and nothing held was sent',
    );
    // The attempt keeps the system's word for operators, after the words.
    expect(attempt.error).toMatch(
      new RegExp(
        `^no OAuth 2\\.0 token from http://127\\.0\\.0\\.1:${port}/token: the token endpoint refused the connection \\(ECONNREFUSED\\b.*\\); nothing was sent to the endpoint$`,
      ),
    );
    expect(receiver.requests).toHaveLength(0);
  });
});
