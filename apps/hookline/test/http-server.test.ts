import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@hookline/config';
import { createServices, type Services } from '@hookline/services';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, TEST_REDIS_URL, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import { startWorker } from '@hookline/worker';
import { buildHttpServer } from '../src/http-server';
import { openTestHistory } from './support/test-history';

// The HTTP tier as deployed (API + website + Bull Board on one port) with a real worker behind it: an admin
// pauses and resumes a hook in Bull Board, and the API and the deliveries follow.
describe('the composed HTTP server', () => {
  const ctx = useRedis('http');
  const API_KEY = 'k'.repeat(32);
  const ADMIN = `Basic ${Buffer.from('ops:admin-password-1').toString('base64')}`;
  let base: string;
  let services: Services;
  let receiver: Receiver;

  beforeEach(async () => {
    const config = loadConfig(
      {
        HOOKLINE_API_KEY: API_KEY,
        HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
        HOOKLINE_ADMIN_USER: 'ops',
        HOOKLINE_ADMIN_PASSWORD: 'admin-password-1',
        REDIS_URL: TEST_REDIS_URL,
      },
      'all-in-one',
    );
    const logger = createLogger('silent', 'test');
    const metrics = createMetrics();
    const history = await openTestHistory(ctx.onCleanup, 'http');
    services = createServices({
      redis: ctx.redis,
      settings: config,
      secretKey: randomBytes(32),
      historyDb: history.client,
    });
    ctx.onCleanup(() => services.close());
    const app: FastifyInstance = await buildHttpServer({
      config,
      redis: ctx.redis,
      services,
      logger,
      metrics,
    });
    ctx.onCleanup(() => app.close());
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const worker = startWorker({
      config,
      redis: ctx.redis,
      keys: services.keys,
      store: services.store,
      metrics,
      logger,
    });
    ctx.onCleanup(() => worker.close());
    receiver = ctx.closeLater(await startReceiver());
  });

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const board = (method: string, path: string) =>
    fetch(`${base}/admin/queues/api/queues/${path}`, { method, headers: { authorization: ADMIN } });

  it('pause and resume in Bull Board suspend and re-enable the hook; held events are delivered in order', async () => {
    const account = await api('POST', '/v1/accounts', { name: 'Acme' });
    const hook = await api('POST', `/v1/accounts/${String(account.body.id)}/hooks`, {
      url: receiver.url(),
      format: 'form',
    });
    const hookPath = `/v1/accounts/${String(account.body.id)}/hooks/${String(hook.body.id)}`;
    const queue = encodeURIComponent(services.keys.hookQueueName(String(hook.body.id)));

    expect((await board('PUT', `${queue}/pause`)).status).toBe(200);
    expect((await api('GET', hookPath)).body).toMatchObject({
      state: 'suspended',
      suspended_reason: 'paused by admin',
    });
    for (const call_id of ['h1', 'h2', 'h3']) {
      const published = await api('POST', `/v1/accounts/${String(account.body.id)}/events`, {
        type: 'call_created',
        data: { call_id, direction: 'outbound', from: 'a', from_cnam: 'A', to: 'b', rate: '0.0' },
      });
      expect(published.status).toBe(202);
    }
    // Held, not sent: give a worker every chance to (wrongly) deliver before resuming.
    await waitUntil(
      async () => (await services.hookQueues.waitingCount(String(hook.body.id))) === 3,
      'three held events',
    );
    expect(receiver.requests).toHaveLength(0);

    expect((await board('PUT', `${queue}/resume`)).status).toBe(200);
    expect((await api('GET', hookPath)).body).toMatchObject({ state: 'active' });
    await receiver.waitFor(3);
    expect(receiver.requests.map((r) => new URLSearchParams(r.body.toString()).get('call_id'))).toEqual([
      'h1',
      'h2',
      'h3',
    ]);
    const activity = await api('GET', `/v1/accounts/${String(account.body.id)}/activity?limit=5`);
    expect((activity.body.data as { kind: string; actor: string }[])[0]).toMatchObject({
      kind: 'hook.enabled',
      actor: 'admin:ops',
    });
  }, 30000);
  it('a request Node refuses before any route (headers over 16 KiB, not HTTP) answers in the API’s error shape', async () => {
    const { port } = new URL(base);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

    const tooLarge = await raw(
      `GET /v1/accounts HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\n\r\n`,
    );
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(tooLarge).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(tooLarge).toMatch(/\r\nCache-Control: no-store\r\n/);
    expect(bodyOf(tooLarge)).toEqual({
      error: {
        code: 'HEADERS_TOO_LARGE',
        message: 'Request headers, the path and query included, are larger than 16 KiB',
      },
    });

    const notHttp = await raw('HELLO THERE\r\n\r\n');
    expect(notHttp).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(notHttp).toMatch(/\r\nCache-Control: no-store\r\n/);
    expect(bodyOf(notHttp)).toEqual({
      error: {
        code: 'MALFORMED_REQUEST',
        message: 'The request is not valid HTTP/1.1: Invalid method encountered',
      },
    });
    // What was wrong is named: a header line without a colon, a body framed two ways at once.
    const noColon = await raw('GET /v1/accounts HTTP/1.1\r\nHost: x\r\nX-Tenant acme\r\n\r\n');
    expect(bodyOf(noColon)).toEqual({
      error: {
        code: 'MALFORMED_REQUEST',
        message: 'The request is not valid HTTP/1.1: Invalid header token',
      },
    });
    const framedTwice = await raw(
      'POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc',
    );
    expect(bodyOf(framedTwice)).toEqual({
      error: {
        code: 'MALFORMED_REQUEST',
        message: "The request is not valid HTTP/1.1: Transfer-Encoding can't be present with Content-Length",
      },
    });
  });

  it('a body declared over 64 KiB with Expect: 100-continue gets 413 at once, never 100 Continue', async () => {
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 70000\r\nExpect: 100-continue\r\n\r\n',
        ),
      );
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      // The server ends the connection: the body, never sent, is not waited for.
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(answer).toMatch(/\r\ncache-control: no-store\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 65536 bytes' },
    });
  });

  it('an id over 100 characters reaches its route, whose own 404 says what was not found', async () => {
    // The router's default maxParamLength (100) sent such an id to the catch-all: "No route GET …" (the path quoted).
    const account = await api('POST', '/v1/accounts', { name: 'Acme' });
    const long = 'a'.repeat(200);
    expect(await api('GET', `/v1/accounts/acct_${long}/hooks`)).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Account not found' } },
    });
    expect(await api('GET', `/v1/accounts/${String(account.body.id)}/hooks/hk_${long}`)).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Hook not found' } },
    });
  });

  it('/v1 itself, the path the start banner prints, asks for the key like every path under it', async () => {
    const res = await fetch(`${base}/v1`);
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'UNAUTHORIZED',
    ]);
    expect(await api('GET', '/v1')).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'No route GET /v1' } },
    });
  });

  it('a malformed address answers in the API’s error shape, and a browser gets a page that says so', async () => {
    // %E0%A4%A is a cut-off UTF-8 sequence: Fastify cannot decode the path and answered with its own JSON
    // ({"error":"Bad Request","code":"FST_ERR_BAD_URL",…}), not §6's shape, and no page for a browser.
    const api = await fetch(`${base}/v1/accounts/acct_1/hooks/%E0%A4%A`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid request: path',
        details: [{ field: 'path', message: expect.stringMatching(/^is not a valid address/) }],
      },
    });

    const page = await fetch(`${base}/hooks/%zz`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const text = (await page.text()).replace(/<[^>]+>/g, ' ');
    expect(text).toContain('This address is not valid');
    expect(text).not.toMatch(/FST_|Bad Request/);
  });
});
