import type { DeliveryRequest } from '@hookline/core';
import { startReceiver, waitUntil, type Receiver } from '@hookline/testing';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { EXCERPT_BYTES } from './capped-body';
import { createDeliverer, type Deliverer } from './deliverer';

const post = (url: string, body = '{"n":1}'): DeliveryRequest => ({
  url,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Service-Event-Type': 'call_created' },
  body,
});

let receiver: Receiver | undefined;
let server: Server | undefined;
let deliverer: Deliverer | undefined;
afterEach(async () => {
  await deliverer?.close();
  await receiver?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  [deliverer, receiver, server] = [undefined, undefined, undefined];
});

describe('the deadline', () => {
  it('a receiver that never answers is timed_out at the deadline, and the request is aborted', async () => {
    receiver = await startReceiver(() => ({ kind: 'hang' }));
    // Long enough that the request reaches the receiver before the deadline on a busy machine too.
    deliverer = createDeliverer({ timeoutMs: 2000, allowNetworks: ['127.0.0.0/8'] });
    const result = await deliverer.attempt(post(receiver.url()));
    expect(result.outcome).toBe('timed_out');
    expect(result.statusCode).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(1999);
    expect(receiver.requests).toHaveLength(1);
    await waitUntil(() => receiver!.inFlight === 0, 'the receiver to see the connection closed');
  });

  it('the next attempt to the same receiver goes through at once after a timed_out one', async () => {
    receiver = await startReceiver((_req, index) =>
      index === 0 ? { kind: 'hang' } : { kind: 'status', status: 200 },
    );
    deliverer = createDeliverer({ timeoutMs: 1000, allowNetworks: ['127.0.0.0/8'] });
    expect((await deliverer.attempt(post(receiver.url(), '{"n":1}'))).outcome).toBe('timed_out');
    // Same deadline: a stalled connection or queue would make this one time out too.
    expect((await deliverer.attempt(post(receiver.url(), '{"n":2}'))).outcome).toBe('delivered');
    expect(receiver.requests.map((r) => r.body.toString())).toEqual(['{"n":1}', '{"n":2}']);
  });

  // An OAuth 2.0 hook's attempt began with its token request: the request gets what the token left of the
  // deadline, and none when nothing is left.
  it('an attempt that began earlier gets what is left of the deadline, and sends nothing when none is', async () => {
    receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 1000 }));
    deliverer = createDeliverer({ timeoutMs: 1500, allowNetworks: ['127.0.0.0/8'] });
    const began = performance.now() - 1000;
    const late = await deliverer.attempt(post(receiver.url(), '{"n":1}'), began);
    expect(late).toMatchObject({ outcome: 'timed_out', error: 'no response within 1500 ms' });
    // Counted from `began`: the whole deadline, less the millisecond a timer may fire early by (as the first test allows).
    expect(late.durationMs).toBeGreaterThanOrEqual(1499);
    const spent = await deliverer.attempt(post(receiver.url(), '{"n":2}'), performance.now() - 1500);
    expect(spent).toMatchObject({ outcome: 'timed_out', error: 'no response within 1500 ms' });
    expect(spent.durationMs).toBeGreaterThanOrEqual(1499);
    expect(receiver.requests.map((r) => r.body.toString())).toEqual(['{"n":1}']);
  });

  it('a status line after the deadline is timed_out, not delivered', async () => {
    receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 2000 }));
    deliverer = createDeliverer({ timeoutMs: 300, allowNetworks: ['127.0.0.1/32'] });
    expect((await deliverer.attempt(post(receiver.url()))).outcome).toBe('timed_out');
  });

  it('counts DNS in the deadline, even while undici cannot abort a pending connect', async () => {
    receiver = await startReceiver();
    let release: (() => void) | undefined;
    // A resolver whose first answer comes only when the test says so: that connect stays pending
    // past the deadline, the case where undici ignores the abort signal.
    const lookup: LookupFunction = (_hostname, _options, callback) => {
      const answer = () => callback(null, [{ address: '127.0.0.1', family: 4 }]);
      if (release) answer();
      else release = answer;
    };
    const connected: string[] = [];
    const onConnected = (message: unknown) =>
      connected.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
    subscribe('undici:client:connected', onConnected);
    try {
      deliverer = createDeliverer({ timeoutMs: 1000, allowNetworks: ['127.0.0.0/8'], lookup });
      const url = `http://slow-dns.test:${receiver.port}/webhook`;

      expect((await deliverer.attempt(post(url, '{"n":1}'))).outcome).toBe('timed_out');
      // The next event to the same URL starts at once, with the same short deadline.
      expect((await deliverer.attempt(post(url, '{"n":2}'))).outcome).toBe('delivered');

      // When the abandoned connect finally completes, its request is dropped, not sent late.
      release!();
      await waitUntil(() => connected.length === 2, 'the abandoned connect to complete');
      expect((await deliverer.attempt(post(url, '{"n":3}'))).outcome).toBe('delivered');
      expect(receiver.requests.map((r) => r.body.toString())).toEqual(['{"n":2}', '{"n":3}']);
    } finally {
      unsubscribe('undici:client:connected', onConnected);
    }
  });

  it('uses the real default of 15000 ms', async () => {
    receiver = await startReceiver(() => ({ kind: 'hang' }));
    deliverer = createDeliverer({ timeoutMs: 15000, allowNetworks: ['127.0.0.0/8'] });
    const result = await deliverer.attempt(post(receiver.url()));
    expect(result.outcome).toBe('timed_out');
    expect(result.durationMs).toBeGreaterThanOrEqual(14999);
    expect(result.error).toBe('no response within 15000 ms');
  }, 25000);
});

describe('the response body', () => {
  it('keeps the first 4 KiB of a large body as whole characters, and finishes', async () => {
    const body = `x${'é'.repeat(512 * 1024)}`; // 1 MiB; the 4 KiB edge falls inside a two-byte character
    receiver = await startReceiver(() => ({ kind: 'status', status: 500, body }));
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
    const result = await deliverer.attempt(post(receiver.url()));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 500 });
    expect(result.responseExcerpt).toBe(`x${'é'.repeat(EXCERPT_BYTES / 2 - 1)}`);
  });

  it('cuts an endless body, keeps the excerpt, and the next attempt is not stalled', async () => {
    let chunksWritten = 0;
    server = createServer((req, res) => {
      req.resume();
      if (req.headers['x-endless'] === undefined) return void res.end('second');
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      // Bounded so the test stops by itself even if the client never hung up.
      const pump = () => {
        while (chunksWritten < 10_000 && !res.destroyed) {
          chunksWritten += 1;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });

    const endless = { ...post(url), headers: { ...post(url).headers, 'X-Endless': '1' } };
    const result = await deliverer.attempt(endless);
    expect(result).toMatchObject({
      outcome: 'delivered',
      statusCode: 200,
      responseExcerpt: 'a'.repeat(EXCERPT_BYTES),
    });
    expect(chunksWritten).toBeLessThan(10_000);
    expect(await deliverer.attempt(post(url))).toMatchObject({
      outcome: 'delivered',
      responseExcerpt: 'second',
    });
  });

  it('a body that never ends is cut at the deadline; the status still decides', async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(201);
      res.write('partial answer');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    deliverer = createDeliverer({ timeoutMs: 1000, allowNetworks: ['127.0.0.0/8'] });
    const result = await deliverer.attempt(
      post(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    );
    expect(result).toMatchObject({
      outcome: 'delivered',
      statusCode: 201,
      responseExcerpt: 'partial answer',
    });
  });
});
