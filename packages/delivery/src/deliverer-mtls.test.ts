import type { DeliveryRequest, HookTls } from '@hookline/core';
import { makeTestPki, startTinyproxy, type TestPki } from '@hookline/testing';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createDeliverer, type Deliverer } from './deliverer';
import { parseEgressProxy } from './egress-proxy';

const HOST = 'mtls.example.com';
const lookup: LookupFunction = (_hostname, _options, callback) =>
  callback(null, [{ address: '127.0.0.1', family: 4 }]);

let pki: TestPki;
let server: Server;
let port: number;
/** The client certificate subject (CN) of every request the endpoint accepted. */
let seen: string[];
let deliverer: Deliverer | undefined;

beforeAll(() => {
  pki = makeTestPki(HOST);
});
beforeEach(async () => {
  seen = [];
  // An endpoint that requires a client certificate from its own CA, as a bank's would.
  server = createServer(
    { ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      seen.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
      req.resume();
      req.on('end', () => res.end('ok'));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  await deliverer?.close();
  deliverer = undefined;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const post = (tls?: HookTls): DeliveryRequest => ({
  url: `https://${HOST}:${port}/webhook`,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"EventType":"call_created"}',
  ...(tls ? { tls } : {}),
});

describe('client certificates (mutual TLS)', () => {
  it("is delivered with the hook's certificate, the endpoint's checked against the hook's CA", async () => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.1/32'], lookup });
    const result = await deliverer.attempt(post({ ...pki.client, ca: pki.ca }));
    expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(seen).toEqual(['hookline-client']);
  });

  it('is refused with a wrong certificate or none: error, in words, and the endpoint handled nothing', async () => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.1/32'], lookup });
    const wrong = await deliverer.attempt(post({ ...pki.stranger, ca: pki.ca }));
    const none = await deliverer.attempt(post());
    expect(none.outcome).toBe('error');
    for (const result of [wrong]) {
      expect(result.outcome).toBe('error');
      expect(result.error).toMatch(/^the endpoint refused the TLS connection before answering/);
    }
    expect(wrong.error).toContain('the client certificate CN=stranger');
    expect(seen).toEqual([]);
  });

  it("says so when the endpoint's certificate is not from the hook's CA", async () => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.1/32'], lookup });
    const result = await deliverer.attempt(post({ ...pki.client, ca: pki.stranger.cert }));
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/^(SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE): /);
    expect(seen).toEqual([]);
  });

  it('presents the certificate through the egress proxy too', async () => {
    const proxy = await startTinyproxy({ connectPorts: [port] });
    try {
      deliverer = createDeliverer({
        timeoutMs: 5000,
        allowNetworks: ['127.0.0.1/32'],
        lookup,
        proxy: parseEgressProxy(proxy.url),
      });
      const result = await deliverer.attempt(post({ ...pki.client, ca: pki.ca }));
      expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
      expect(seen).toEqual(['hookline-client']);
      expect(proxy.connects()).toEqual([`127.0.0.1:${port}`]);
    } finally {
      await proxy.close();
    }
  });
});
