import { connect, type Socket } from 'node:net';
import { useRedis } from '@hookline/testing';
import { startHttpTier } from './support/http-tier';

// An anonymous client that trickles its request (one byte at a time, never finishing) must not hold a
// connection of the HTTP tier past the receive deadlines.
describe('the HTTP tier bounds how long a request may take to arrive', () => {
  const ctx = useRedis('http-deadlines');
  let port: number;

  beforeEach(async () => {
    const { app } = await startHttpTier(ctx, {
      HOOKLINE_HTTP_HEADERS_TIMEOUT_MS: '1000',
      HOOKLINE_HTTP_REQUEST_TIMEOUT_MS: '2000',
    });
    port = (app.server.address() as { port: number }).port;
  });

  /** Sends `head` then one byte of `tail` every 200 ms; resolves with what the server answered once it closes. */
  function trickle(head: string, tail: string): Promise<{ answer: string; closedByServer: boolean }> {
    return new Promise((resolve) => {
      const socket: Socket = connect(port, '127.0.0.1');
      let answer = '';
      let sent = 0;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => undefined);
      socket.write(head);
      // The client never stops on its own before its 60 s of bytes run out; the server must end it first.
      const timer = setInterval(() => {
        if (sent >= tail.length) return finish(false);
        socket.write(tail[sent]!);
        sent += 1;
      }, 200);
      const finish = (closedByServer: boolean) => {
        clearInterval(timer);
        socket.destroy();
        resolve({ answer, closedByServer });
      };
      socket.on('close', () => finish(true));
    });
  }

  it('closes a connection whose sign-in form body trickles in, answering 408', async () => {
    const body = `email=a%40b.example&password=${'x'.repeat(300)}`;
    const { answer, closedByServer } = await trickle(
      `POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(closedByServer).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain(
      '{"error":{"code":"REQUEST_TIMEOUT","message":"The request was not received in time"}}',
    );
  }, 70_000);

  it('closes a connection whose headers trickle in', async () => {
    const { closedByServer } = await trickle('GET / HTTP/1.1\r\n', `X-Slow: ${'y'.repeat(300)}\r\n`);
    expect(closedByServer).toBe(true);
  }, 70_000);

  it('still serves requests that arrive in time', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
