import { buildDeliveryRequest, SAMPLE_CALL_CREATED, type DeliveryRequest } from '@hookline/core';
import { startReceiver, startTinyproxy, waitUntil, type Receiver, type Tinyproxy } from '@hookline/testing';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { createDeliverer, type Deliverer } from './deliverer';
import { parseEgressProxy } from './egress-proxy';

const requestTo = (url: string): DeliveryRequest =>
  buildDeliveryRequest(
    { url, format: 'json', auth: { scheme: 'bearer', token: 'tok_123456789' } },
    SAMPLE_CALL_CREATED,
    {
      eventTypeHeader: 'X-Service-Event-Type',
      userAgent: 'hookline-test/1',
    },
  );

/** A resolver with fixed answers, standing in for DNS; the policy still judges what it returns. */
const fixedLookup =
  (answers: Record<string, string>): LookupFunction =>
  (hostname, _options, callback) =>
    callback(null, [{ address: answers[hostname] ?? '192.0.2.1', family: 4 }]);

let receiver: Receiver;
let proxy: Tinyproxy;
let deliverers: Deliverer[] = [];
const viaProxy = (url: string, allowNetworks: string[] = [`127.0.0.1/32`], lookup?: LookupFunction) => {
  const deliverer = createDeliverer({
    timeoutMs: 5000,
    allowNetworks,
    proxy: parseEgressProxy(url),
    ...(lookup ? { lookup } : {}),
  });
  deliverers.push(deliverer);
  return deliverer;
};

beforeEach(async () => {
  receiver = await startReceiver();
  proxy = await startTinyproxy({ connectPorts: [receiver.port, 443] });
});
afterEach(async () => {
  await Promise.all(deliverers.map((d) => d.close()));
  deliverers = [];
  await receiver.close();
  await proxy.close();
});

describe('deliveries through the egress proxy', () => {
  it("reach the endpoint from the proxy's address with §3's exact bytes, the tunnel opened to the resolved address", async () => {
    const d = viaProxy(proxy.url, ['127.0.0.1/32'], fixedLookup({ 'hooks.example.com': '127.0.0.1' }));
    const url = `http://hooks.example.com:${receiver.port}/webhook`;
    const results = [await d.attempt(requestTo(url)), await d.attempt(requestTo(url))];
    expect(results.map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
    expect(receiver.requests).toHaveLength(2);
    for (const request of receiver.requests) {
      expect(request.remoteAddress).toBe('127.0.0.2');
      expect(request.path).toBe('/webhook');
      expect(request.rawHeaders).toEqual([
        'host',
        `hooks.example.com:${receiver.port}`,
        'connection',
        'keep-alive',
        'Content-Type',
        'application/json; charset=utf-8',
        'X-Service-Event-Type',
        'call_created',
        'Authorization',
        'Bearer tok_123456789',
        'User-Agent',
        'hookline-test/1',
        'content-length',
        String(request.body.length),
      ]);
      expect(request.body.toString('utf8')).toBe(
        '{"EventType":"call_created","call_id":"9309b4a2-d59f","direction":"outbound","from":"jonas1","from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}',
      );
    }
    // The proxy was asked for the address the policy judged, never for the name (it does not resolve again).
    await waitUntil(() => proxy.connects().length === 2, 'the proxy to log both tunnels');
    expect(proxy.connects()).toEqual([`127.0.0.1:${receiver.port}`, `127.0.0.1:${receiver.port}`]);
  });

  it("speaks TLS inside the tunnel with the hook's host name as SNI", async () => {
    const names: string[] = [];
    // A server with no certificate of its own to offer: it records the SNI the client sent, then the handshake
    // fails, which the attempt reports as an error in words.
    const https = createHttpsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate here'), undefined as never);
      },
    });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    const port = (https.address() as AddressInfo).port;
    await proxy.close();
    proxy = await startTinyproxy({ connectPorts: [port] });
    try {
      const d = viaProxy(proxy.url, ['127.0.0.1/32'], fixedLookup({ 'secure.example.com': '127.0.0.1' }));
      const result = await d.attempt(requestTo(`https://secure.example.com:${port}/hook`));
      expect(result.outcome).toBe('error');
      expect(names).toEqual(['secure.example.com']);
      expect(proxy.connects()).toEqual([`127.0.0.1:${port}`]);
    } finally {
      await new Promise((r) => https.close(r));
    }
  });

  it.each([
    ['loopback', 'http://127.0.0.1:{port}/webhook', 'loopback'],
    ['loopback by name', 'http://localhost:{port}/webhook', 'loopback'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'link_local'],
    ['private', 'http://10.0.0.1/webhook', 'private'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:{port}/webhook', 'loopback'],
    ['IPv4-mapped metadata', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', 'link_local'],
    ['a name resolving to metadata', 'http://rebind.example.com/x', 'link_local'],
  ])('still blocks %s with the proxy on: the proxy never hears of it', async (_name, template, reason) => {
    const d = viaProxy(
      proxy.url,
      [],
      fixedLookup({ localhost: '127.0.0.1', 'rebind.example.com': '169.254.169.254' }),
    );
    const result = await d.attempt(requestTo(template.replace('{port}', String(receiver.port))));
    expect(result.outcome).toBe('blocked');
    expect(result.error).toContain(`(${reason})`);
    expect(receiver.requests).toHaveLength(0);
    // The same proxy does log a tunnel it is asked for: its silence here means it was not asked.
    const allowed = viaProxy(proxy.url);
    expect((await allowed.attempt(requestTo(receiver.url('/ok')))).outcome).toBe('delivered');
    await waitUntil(() => proxy.connects().length > 0, 'the allowed tunnel in the log');
    expect(proxy.connects()).toEqual([`127.0.0.1:${receiver.port}`]);
  });

  it('sends nothing when the proxy is down or refuses, and says why without its credentials', async () => {
    const d = viaProxy(proxy.url.replace('http://', 'http://ops:s3cret-pw@'));
    await proxy.stop();
    const down = await d.attempt(requestTo(receiver.url('/webhook')));
    expect(down).toMatchObject({ outcome: 'not_sent', cause: 'unreachable' });
    expect(down.error).toBe(`the egress proxy 127.0.0.1:${proxy.port} cannot be reached: ECONNREFUSED`);
    await proxy.start();
    // tinyproxy tunnels only to its ConnectPorts: another port is refused with 403.
    const refused = await d.attempt(
      requestTo(`http://127.0.0.1:${receiver.port + 1 === 443 ? 444 : receiver.port + 1}/x`),
    );
    expect(refused).toMatchObject({ outcome: 'not_sent', cause: 'refused' });
    expect(refused.error).toMatch(
      /^the egress proxy 127\.0\.0\.1:\d+ refused CONNECT 127\.0\.0\.1:\d+: 403 Access violation$/,
    );
    expect(`${down.error} ${refused.error}`).not.toContain('s3cret');
    expect(receiver.requests).toHaveLength(0);
  });

  it("records an endpoint that is down behind the proxy as the endpoint's error, naming the proxy's answer", async () => {
    const d = viaProxy(proxy.url);
    const url = receiver.url('/webhook');
    // The proxy is up and tunnels to this port; nothing listens there any more.
    await receiver.close();
    const result = await d.attempt(requestTo(url));
    expect(result.outcome).toBe('error');
    // tinyproxy's own answer when its connect(2) to the destination fails.
    expect(result.error).toBe(
      `the egress proxy 127.0.0.1:${proxy.port} could not reach 127.0.0.1:${receiver.port}: it answered CONNECT with 500 Unable to connect`,
    );
    await waitUntil(() => proxy.connects().length === 1, 'the tunnel in the log');
    expect(proxy.connects()).toEqual([`127.0.0.1:${receiver.port}`]);
    receiver = await startReceiver();
  });

  it('authenticates to a proxy that requires it (Basic)', async () => {
    await proxy.close();
    proxy = await startTinyproxy({
      connectPorts: [receiver.port],
      basicAuth: { user: 'hookline', password: 'pr0xy-pw' },
    });
    const wrong = viaProxy(proxy.url.replace('pr0xy-pw', 'wrong'));
    const refused = await wrong.attempt(requestTo(receiver.url('/webhook')));
    expect(refused).toMatchObject({ outcome: 'not_sent', cause: 'refused' });
    // tinyproxy answers 401 where RFC 9110 says 407; either way the proxy refused.
    expect(refused.error).toMatch(/: 40[17] /);
    await wrong.close();
    const right = viaProxy(proxy.url);
    expect((await right.attempt(requestTo(receiver.url('/webhook')))).outcome).toBe('delivered');
    expect(receiver.requests.map((r) => r.remoteAddress)).toEqual(['127.0.0.2']);
  });
});
