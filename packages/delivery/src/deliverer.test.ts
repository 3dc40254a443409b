import { buildDeliveryRequest, type DeliverableEvent, type HookAuth, type HookFormat } from '@hookline/core';
import { startReceiver, type Receiver } from '@hookline/testing';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createDeliverer, type Deliverer } from './deliverer';

const event: DeliverableEvent = {
  id: 'evt_1',
  type: 'call_created',
  fields: {
    EventType: 'call_created',
    call_id: '9309b4a2-d59f',
    direction: 'outbound',
    from: 'jonas1',
    from_cnam: 'Jönas 😀 & co',
    to: '78791245',
    rate: '0.0100',
    date: '2016-03-01T08:31:55.0000000',
  },
};
const requestTo = (url: string, format: HookFormat = 'json', auth: HookAuth = { scheme: 'none' }) =>
  buildDeliveryRequest({ url, format, auth }, event, {
    eventTypeHeader: 'X-Service-Event-Type',
    userAgent: 'hookline-test/1',
  });

let receiver: Receiver | undefined;
let deliverer: Deliverer;
beforeEach(() => {
  deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
});
afterEach(async () => {
  await deliverer.close();
  await receiver?.close();
  receiver = undefined;
});

describe('what the receiver gets', () => {
  it.each(['json', 'form'] as const)('sends the exact %s bytes and headers', async (format) => {
    receiver = await startReceiver();
    const req = requestTo(receiver.url('/hooks/in?source=pbx'), format, {
      scheme: 'basic',
      username: 'jonas',
      password: 'pässwörd',
    });
    const result = await deliverer.attempt(req);

    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(receiver.requests).toHaveLength(1);
    const got = receiver.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hooks/in?source=pbx');
    expect(got.body.equals(Buffer.from(req.body, 'utf8'))).toBe(true);
    const headers = Object.fromEntries(
      Array.from({ length: got.rawHeaders.length / 2 }, (_, i) => [
        got.rawHeaders[2 * i],
        got.rawHeaders[2 * i + 1],
      ]),
    );
    expect(headers).toEqual({
      host: `127.0.0.1:${receiver.port}`,
      connection: 'keep-alive',
      'Content-Type':
        format === 'json' ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded',
      'X-Service-Event-Type': 'call_created',
      Authorization: `Basic ${Buffer.from('jonas:pässwörd', 'utf8').toString('base64')}`,
      'User-Agent': 'hookline-test/1',
      'content-length': String(Buffer.byteLength(req.body, 'utf8')),
    });
  });

  it('sends a bearer token as given', async () => {
    receiver = await startReceiver();
    await deliverer.attempt(
      requestTo(receiver.url(), 'json', { scheme: 'bearer', token: 'tok_live_abc123' }),
    );
    expect(receiver.requests[0]!.headers['authorization']).toBe('Bearer tok_live_abc123');
  });
});

describe('outcome by status', () => {
  it.each([200, 201, 204, 299])('%i is delivered', async (status) => {
    receiver = await startReceiver(() => ({ kind: 'status', status, body: status === 204 ? '' : 'ok' }));
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result.outcome).toBe('delivered');
    expect(result.statusCode).toBe(status);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([400, 404, 410, 429, 500, 503])('%i is failed, with the body as excerpt', async (status) => {
    receiver = await startReceiver(() => ({ kind: 'status', status, body: `nope ${status} ✗` }));
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: status,
      responseExcerpt: `nope ${status} ✗`,
    });
  });

  it('never follows a redirect: 302 is failed and the Location is not fetched', async () => {
    receiver = await startReceiver((req) =>
      req.path === '/webhook'
        ? { kind: 'status', status: 302, headers: { location: receiver!.url('/moved') } }
        : { kind: 'status', status: 200 },
    );
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 302 });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/webhook']);
  });

  it.each([301, 307, 308])('%i is failed too', async (status) => {
    receiver = await startReceiver(() => ({
      kind: 'status',
      status,
      headers: { location: 'http://127.0.0.1:1/' },
    }));
    expect(await deliverer.attempt(requestTo(receiver.url()))).toMatchObject({
      outcome: 'failed',
      statusCode: status,
    });
  });
});

describe('network errors', () => {
  it('a connection reset is error', async () => {
    receiver = await startReceiver(() => ({ kind: 'reset' }));
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result.outcome).toBe('error');
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/ECONNRESET|other side closed/);
  });

  it('a closed port is error ECONNREFUSED', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const result = await deliverer.attempt(requestTo(`http://127.0.0.1:${port}/webhook`));
    expect(result).toMatchObject({ outcome: 'error', error: 'ECONNREFUSED' });
  });

  it('a DNS failure is error ENOTFOUND', async () => {
    const failing = createDeliverer({
      timeoutMs: 5000,
      allowNetworks: [],
      lookup: (hostname, _options, callback) =>
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), ''),
    });
    try {
      expect(await failing.attempt(requestTo('https://hooks.example.test/x'))).toMatchObject({
        outcome: 'error',
        error: 'ENOTFOUND',
      });
    } finally {
      await failing.close();
    }
  });

  it('an unusable URL is error, not a throw', async () => {
    const result = await deliverer.attempt(requestTo('ftp://127.0.0.1/x'));
    expect(result.outcome).toBe('error');
  });
});

// A self-signed certificate for 127.0.0.1 (valid until 2126), made for this test with openssl.
const SELF_SIGNED = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgcOtbC+4U/DHJ6wNR
7ljwdwwlxDOhaJyXg6KfdXcsmSehRANCAASkXjwLFNC5eL2CkzDB/8b6eJYlEA2t
ktN0WrViFcOq4jdrVxarRuogREMPRVrYWES0Udcm6veraFVt/Apch7LC
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUaqDO6VwnEa0S0DORb7oPxpCgT7IwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMTA4NTMxMFoYDzIxMjYxMDI4
MDg1MzEwWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASkXjwLFNC5eL2CkzDB/8b6eJYlEA2tktN0WrViFcOq4jdrVxarRuog
REMPRVrYWES0Udcm6veraFVt/Apch7LCo28wbTAdBgNVHQ4EFgQU6iI2ipuSnlN2
3c58v1EjBGmn2GIwHwYDVR0jBBgwFoAU6iI2ipuSnlN23c58v1EjBGmn2GIwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDRwAwRAIgI0wXgCzU3tcwIi9FloW27qtW2GNv69p+AhSUazg3qx4CIGXE
Jn89s68ETwQ1pdhcPYzBoBqXDkqjgfmO+BZutv5d
-----END CERTIFICATE-----`,
};

describe('TLS', () => {
  it('an untrusted certificate is error, and nothing is sent', async () => {
    let requests = 0;
    const server = createHttpsServer(SELF_SIGNED, (_req, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await deliverer.attempt(requestTo(`https://127.0.0.1:${port}/webhook`));
      expect(result).toMatchObject({ outcome: 'error' });
      expect(result.error).toMatch(/SELF_SIGNED/);
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('keep-alive', () => {
  it('delivers several events in a row to one receiver', async () => {
    receiver = await startReceiver();
    for (let i = 0; i < 5; i += 1)
      expect((await deliverer.attempt(requestTo(receiver.url()))).outcome).toBe('delivered');
    expect(receiver.requests).toHaveLength(5);
  });
});
