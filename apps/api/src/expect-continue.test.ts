import { connect, type Socket } from 'node:net';
import { API_KEY, useApi } from './test-support/api-harness';

// What a client that sends `Expect: 100-continue` reads, byte for byte, on a raw socket: it sends its body only
// after a 100 Continue, so an answer before that is the whole exchange.

/** A socket to the API, with everything it has received so far and whether the server ended it. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const state = { received: '', ended: false };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (state.received += chunk));
  socket.on('end', () => (state.ended = true));
  socket.on('error', () => undefined);
  /** Waits until `done` holds of what was received (or the server ended), at most `ms`. */
  const until = async (done: (received: string) => boolean, ms = 2000): Promise<string> => {
    const deadline = Date.now() + ms;
    while (!done(state.received) && !state.ended && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return state.received;
  };
  return { socket, state, until };
}

const head = (method: string, path: string, headers: Record<string, string | number>): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n';

const TOO_LARGE =
  'HTTP/1.1 413 Payload Too Large\r\n' +
  'content-type: application/json; charset=utf-8\r\n' +
  'cache-control: no-store\r\n' +
  'content-length: 90\r\n' +
  'Date: <date>\r\n' +
  'Connection: close\r\n' +
  '\r\n' +
  '{"error":{"code":"PAYLOAD_TOO_LARGE","message":"Request body is larger than 65536 bytes"}}';

describe('Expect: 100-continue', () => {
  const api = useApi();
  const withDate = (text: string) => text.replace(/\r\nDate: [^\r]+\r\n/, '\r\nDate: <date>\r\n');

  it('answers a body declared over 64 KiB with 413 at once, without 100 Continue, and closes', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    for (const key of [API_KEY, undefined]) {
      const client = rawClient(api.port);
      client.socket.write(
        head('POST', `/v1/accounts/${acct}/events`, {
          ...(key ? { Authorization: `Bearer ${key}` } : {}),
          'Content-Type': 'application/json',
          'Content-Length': 70_000,
          Expect: '100-continue',
        }),
      );
      // The body is never sent: the answer and the end of the connection come without it.
      const received = await client.until(() => false);
      expect([withDate(received), client.state.ended]).toEqual([TOO_LARGE, true]);
      client.socket.destroy();
    }
    expect(await api.jobsOf(hook.id)).toEqual([]);
  });

  it('tells a body within the limit to continue, then serves it as any other', async () => {
    const client = rawClient(api.port);
    const body = JSON.stringify({ name: 'Continued' });
    client.socket.write(
      head('POST', '/v1/accounts', {
        Authorization: `Bearer ${API_KEY}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue',
        Connection: 'close',
      }),
    );
    expect(await client.until((r) => r.includes('\r\n\r\n'))).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    client.socket.write(body);
    const received = await client.until(() => false);
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
    expect(received).toContain('\r\ncache-control: no-store\r\n');
    const created = JSON.parse(received.slice(received.lastIndexOf('\r\n\r\n') + 4)) as { id: string };
    expect(created).toEqual({ id: expect.stringMatching(/^acct_/), name: 'Continued' });
    client.socket.destroy();
  });

  it('leaves a GET, whose body is never read, to continue as before', async () => {
    const client = rawClient(api.port);
    client.socket.write(
      head('GET', '/v1/event-types', {
        Authorization: `Bearer ${API_KEY}`,
        'Content-Length': 70_000,
        Expect: '100-continue',
      }),
    );
    expect(await client.until((r) => r.includes('\r\n\r\n'))).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    client.socket.destroy();
  });
});
