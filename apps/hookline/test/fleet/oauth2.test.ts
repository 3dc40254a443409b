import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttemptRecord } from '@hookline/core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// OAuth 2.0 client credentials (RFC 6749 §4.4) end to end, against a token endpoint of the test's own.
describe('OAuth 2.0 hooks', () => {
  const h = useHookline();

  /** A token endpoint: checks the client's credentials, hands out tok-1, tok-2, … valid `expiresIn` seconds. */
  async function tokenEndpoint(options: { expiresIn: number; refuse?: boolean; delayMs?: number }) {
    const asked: { authorization?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        asked.push({
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
          body,
        });
        const basicOk =
          req.headers.authorization === `Basic ${Buffer.from('hookline:s3cret').toString('base64')}`;
        const postOk = body.includes('client_id=hookline') && body.includes('client_secret=s3cret');
        res.setHeader('Content-Type', 'application/json');
        if (options.delayMs) {
          const answer = JSON.stringify({ access_token: `tok-${asked.length}`, token_type: 'Bearer' });
          setTimeout(() => res.end(answer), options.delayMs);
          return;
        }
        if (options.refuse || !(basicOk || postOk)) {
          res.statusCode = 401;
          res.end('{"error":"invalid_client","error_description":"unknown client"}');
          return;
        }
        res.end(
          JSON.stringify({
            access_token: `tok-${asked.length}`,
            token_type: 'Bearer',
            expires_in: options.expiresIn,
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    h.ctx.onCleanup(() => new Promise((r) => server.close(r)));
    return { asked, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token` };
  }

  async function setUp(
    token: { url: string },
    answer401 = false,
    clientAuth?: 'post',
    slow?: { endpointDelayMs: number; deadlineMs: number },
  ) {
    const receiver = await startReceiver((_req, i) => ({
      kind: 'status',
      status: answer401 && i === 0 ? 401 : 200,
      ...(slow ? { delayMs: slow.endpointDelayMs } : {}),
    }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, {
      url: receiver.url('/webhook'),
      auth: {
        scheme: 'oauth2',
        token_url: token.url,
        client_id: 'hookline',
        client_secret: 's3cret',
        scope: 'events:write',
        ...(clientAuth ? { client_auth: clientAuth } : {}),
      },
    });
    h.startWorker(slow ? { HOOKLINE_DELIVERY_TIMEOUT_MS: slow.deadlineMs } : {});
    return { receiver, account, hook };
  }

  const records = (hookId: string, n: number) =>
    waitUntil(async () => {
      const log = await h.deliveries(hookId);
      return log.length === n ? log : undefined;
    }, `${n} records`);

  it('gets a token once and sends it as Bearer on every event while it is fresh', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600 });
    const { receiver, account, hook } = await setUp(token);
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `o-${n}` });
    await receiver.waitFor(3);
    expect(receiver.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer tok-1',
      'Bearer tok-1',
      'Bearer tok-1',
    ]);
    expect(token.asked).toEqual([
      {
        authorization: `Basic ${Buffer.from('hookline:s3cret').toString('base64')}`,
        body: 'grant_type=client_credentials&scope=events%3Awrite',
      },
    ]);
    const [line] = await records(hook.id, 3);
    const record = (await h.reader.attempt(account.id, hook.id, line!.attempt_id)) as AttemptRecord;
    expect(record.request!.headers['Authorization']).toBe('Bearer ••••');
    expect(JSON.stringify(record)).not.toContain('tok-1');
  });

  it('asks again once a tenth of the lifetime is left (client_secret_post)', async () => {
    const token = await tokenEndpoint({ expiresIn: 1 });
    const { receiver, account } = await setUp(token, false, 'post');
    await h.publish(account.id, { call_id: 'first' });
    await receiver.waitFor(1);
    const fetched = Date.now();
    await waitUntil(() => Date.now() > fetched + 1000, 'the token to age past 0.9 s');
    await h.publish(account.id, { call_id: 'second' });
    await receiver.waitFor(2);
    expect(receiver.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(token.asked.map((a) => a.body)).toEqual([
      'grant_type=client_credentials&scope=events%3Awrite&client_id=hookline&client_secret=s3cret',
      'grant_type=client_credentials&scope=events%3Awrite&client_id=hookline&client_secret=s3cret',
    ]);
  });

  it('a 401 from the endpoint is that event’s outcome, and the next event gets a fresh token', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600 });
    const { receiver, account, hook } = await setUp(token, true);
    await h.publish(account.id, { call_id: 'refused' });
    await h.publish(account.id, { call_id: 'next' });
    await receiver.waitFor(2);
    expect(receiver.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    const log = await records(hook.id, 2);
    expect(log.map((r) => [r.call_id, r.outcome, r.status_code])).toEqual([
      ['next', 'delivered', 200],
      ['refused', 'failed', 401],
    ]);
  });

  it('without a token: outcome error with the token endpoint’s reason, nothing sent to the endpoint', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600, refuse: true });
    const { receiver, account, hook } = await setUp(token);
    await h.publish(account.id);
    const [record] = await records(hook.id, 1);
    expect(record).toMatchObject({
      outcome: 'error',
      error: `no OAuth 2.0 token from ${token.url}: the token endpoint answered 401 (invalid_client: unknown client); nothing was sent to the endpoint`,
    });
    expect(receiver.requests).toHaveLength(0);
  });

  // One deadline for the whole attempt, token included (README, Delivery rules): the endpoint gets what the token
  // left of it, and duration_ms counts from the attempt's start. Each took a full deadline of its own before, so
  // a slow token endpoint and a slow endpoint held the hook's queue for two deadlines, recorded `delivered`.
  it('a slow token leaves the endpoint what is left of the deadline: timed_out', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600, delayMs: 1000 });
    const slow = { endpointDelayMs: 1000, deadlineMs: 1500 };
    const { receiver, account, hook } = await setUp(token, false, undefined, slow);
    await h.publish(account.id);
    const [record] = await records(hook.id, 1);
    expect(receiver.requests).toHaveLength(1);
    expect(record).toMatchObject({ outcome: 'timed_out' });
    expect(record!.error).toMatch(/^no response within 1500 ms; the OAuth 2\.0 token took \d+ ms of it$/);
    // The whole deadline, less the millisecond a timer may fire early by against performance.now().
    expect(record!.duration_ms).toBeGreaterThanOrEqual(slow.deadlineMs - 1);
  });

  // README, "OAuth 2.0 client credentials": a token endpoint that does not answer within the deadline is the
  // attempt's `error` (not the endpoint's `timed_out`), in the words of a token that could not be had.
  it('a token endpoint silent for the whole deadline: error, no response within it, nothing sent', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600, delayMs: 3000 });
    const { receiver, account, hook } = await setUp(token, false, undefined, {
      endpointDelayMs: 0,
      deadlineMs: 1500,
    });
    await h.publish(account.id);
    const [record] = await records(hook.id, 1);
    expect(record).toMatchObject({
      outcome: 'error',
      error: `no OAuth 2.0 token from ${token.url}: no response within 1500 ms; nothing was sent to the endpoint`,
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('duration_ms of an OAuth attempt counts the token request too', async () => {
    const token = await tokenEndpoint({ expiresIn: 3600, delayMs: 500 });
    const { receiver, account, hook } = await setUp(token, false, undefined, {
      endpointDelayMs: 500,
      deadlineMs: 5000,
    });
    await h.publish(account.id);
    const [record] = await records(hook.id, 1);
    expect(receiver.requests).toHaveLength(1);
    expect(record).toMatchObject({ outcome: 'delivered', status_code: 200 });
    expect(record!.duration_ms).toBeGreaterThanOrEqual(1000);
  });
});
