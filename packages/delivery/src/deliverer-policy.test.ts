import type { DeliveryRequest } from '@hookline/core';
import { startReceiver, type Receiver } from '@hookline/testing';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { LookupFunction } from 'node:net';
import { createDeliverer, type Deliverer } from './deliverer';

const post = (url: string): DeliveryRequest => ({
  url,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Service-Event-Type': 'call_created' },
  body: '{"EventType":"call_created"}',
});

// Every TCP socket Node creates in the process is published here: a policy that refuses before
// connecting creates none.
const socketsCreated = () => {
  let count = 0;
  const onSocket = () => (count += 1);
  subscribe('net.client.socket', onSocket);
  return { count: () => count, stop: () => unsubscribe('net.client.socket', onSocket) };
};

/** A resolver with fixed answers, standing in for DNS; the policy still judges what it returns. */
const fixedLookup =
  (answers: Record<string, string[]>): LookupFunction =>
  (hostname, _options, callback) =>
    callback(
      null,
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

let receiver: Receiver;
let deliverer: Deliverer | undefined;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await deliverer?.close();
  await receiver.close();
  deliverer = undefined;
});

describe('the network policy at delivery', () => {
  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/webhook`, 'loopback'],
    ['[::1]', (port: number) => `http://[::1]:${port}/webhook`, 'loopback'],
    ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/webhook`, 'loopback'],
    ['localhost', (port: number) => `http://localhost:${port}/webhook`, 'loopback'],
  ])('blocks %s: nothing is received', async (_name, urlFor, reason) => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: [] });
    const result = await deliverer.attempt(post(urlFor(receiver.port)));
    expect(result.outcome).toBe('blocked');
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toContain(`(${reason})`);
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([
    ['10.0.0.1', 'http://10.0.0.1/webhook', 'private'],
    ['169.254.169.254', 'http://169.254.169.254/latest/meta-data/', 'link_local'],
    ['[::ffff:169.254.169.254]', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', 'link_local'],
    ['[fd00:ec2::254]', 'http://[fd00:ec2::254]/latest/meta-data/', 'unique_local'],
    ['100.64.0.1', 'https://100.64.0.1/', 'cgnat'],
    ['0.0.0.0', 'http://0.0.0.0:80/', 'unspecified'],
  ])('blocks %s before any socket exists', async (_name, url, reason) => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
    const sockets = socketsCreated();
    try {
      const result = await deliverer.attempt(post(url));
      expect(result).toMatchObject({ outcome: 'blocked' });
      expect(result.error).toContain(`(${reason})`);
      expect(sockets.count()).toBe(0);
    } finally {
      sockets.stop();
    }
  });

  it('blocks a host name whose every address is forbidden, naming them, without connecting', async () => {
    deliverer = createDeliverer({
      timeoutMs: 5000,
      allowNetworks: [],
      lookup: fixedLookup({ 'rebind.example.test': ['127.0.0.1', '::1', '10.0.0.7'] }),
    });
    const result = await deliverer.attempt(post(`http://rebind.example.test:${receiver.port}/webhook`));
    expect(result.outcome).toBe('blocked');
    expect(result.error).toBe(
      'destination rebind.example.test resolves only to addresses the network policy forbids: ' +
        '127.0.0.1 (loopback), ::1 (loopback), 10.0.0.7 (private)',
    );
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects only to the allowed addresses of a host name', async () => {
    // 10.0.0.7 comes first in the answer; connecting to it would hang or leave this machine.
    deliverer = createDeliverer({
      timeoutMs: 5000,
      allowNetworks: ['127.0.0.0/8'],
      lookup: fixedLookup({ 'mixed.example.test': ['10.0.0.7', '169.254.169.254', '127.0.0.1'] }),
    });
    const sockets = socketsCreated();
    try {
      const result = await deliverer.attempt(post(`http://mixed.example.test:${receiver.port}/webhook`));
      expect(result.outcome).toBe('delivered');
      expect(sockets.count()).toBe(1); // and the probe used above does see sockets
    } finally {
      sockets.stop();
    }
    expect(receiver.requests[0]!.headers['host']).toBe(`mixed.example.test:${receiver.port}`);
  });
});

describe('allowNetworks', () => {
  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/webhook`],
    ['localhost', (port: number) => `http://localhost:${port}/webhook`],
    ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/webhook`],
  ])('exempts %s when 127.0.0.0/8 is allowed', async (_name, urlFor) => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
    expect((await deliverer.attempt(post(urlFor(receiver.port)))).outcome).toBe('delivered');
    expect(receiver.requests).toHaveLength(1);
  });

  it('exempts only what it lists', async () => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.2/32'] });
    expect((await deliverer.attempt(post(receiver.url()))).outcome).toBe('blocked');
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a malformed CIDR at creation', () => {
    expect(() => createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/40'] })).toThrow(/not a CIDR/);
  });
});
