import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { waitUntil } from '@hookline/testing';
import { API_KEY, callCreated, configFor, useApi } from './test-support/api-harness';
import { createApiDeps } from './test-support/api-deps';
import { serveApi } from './test-support/failover-api';

// What an operator finds in the log: at the default level (info) no line per request, but every failure; at
// debug, both access lines of every request, each with its request id.
describe('the request log', () => {
  const api = useApi();

  async function serverLoggingAt(level: string) {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const deps = createApiDeps(
      configFor(api.ctx.prefix),
      api.ctx.redis,
      createLogger(level, 'api-test', sink),
      createMetrics(),
      api.history.client,
    );
    const call = await serveApi(api.ctx, deps);
    // The lines of requests (the start-up line has no request id).
    return { lines: () => lines.filter((line) => 'reqId' in line), call };
  }

  it('at info, writes no line for requests that succeed or are refused, and logs a 500 with its request id', async () => {
    const acct = await api.createAccount();
    await api.createHook(acct);
    const { lines, call } = await serverLoggingAt('info');
    const published = await call('POST', `/v1/accounts/${acct}/events`, {
      type: 'call_created',
      data: callCreated(),
    });
    expect(published.statusCode).toBe(202);
    expect((await call('GET', '/v1/accounts/acct_00000000000000000000/hooks')).statusCode).toBe(404);
    expect(lines()).toEqual([]);

    // Data of the wrong type under the account's key makes Redis refuse the read (WRONGTYPE).
    const broken = await api.createAccount('Broken');
    await api.ctx.redis.del(api.keys.accountRecord(broken));
    await api.ctx.redis.set(api.keys.accountRecord(broken), 'corrupt');
    const failed = await call('GET', `/v1/accounts/${broken}/hooks`);
    expect(failed.statusCode).toBe(500);
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'request failed',
        reqId: failed.headers['x-request-id'],
        err: expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }),
      }),
    ]);
  });

  it('a client that hangs up before its body arrived is logged as such, not as Redis out of reach', async () => {
    const { lines, call } = await serverLoggingAt('info');
    const socket = connect(call.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: 50\r\nAuthorization: Bearer ${API_KEY}\r\n\r\n{"na`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await waitUntil(async () => lines().length > 0, 'the line of the request', 5000);
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'client closed the connection before its request arrived',
      }),
    ]);
  });

  it('at debug, writes both access lines of every request with its request id, never the operator key', async () => {
    const acct = await api.createAccount();
    const { lines, call } = await serverLoggingAt('debug');
    const res = await call('GET', `/v1/accounts/${acct}/hooks`);
    expect(res.statusCode).toBe(200);
    const reqId = res.headers['x-request-id'];
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 20,
        msg: 'incoming request',
        reqId,
        req: expect.objectContaining({ method: 'GET', url: `/v1/accounts/${acct}/hooks` }),
      }),
      expect.objectContaining({
        level: 20,
        msg: 'request completed',
        reqId,
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(lines())).not.toContain(API_KEY);
  });

  it("at debug, never writes a sign-in link's token", async () => {
    const { lines, call } = await serverLoggingAt('debug');
    await call('GET', '/portal/plt_s3cretT0ken?checked=1');
    expect(lines()[0]).toMatchObject({
      msg: 'incoming request',
      req: { method: 'GET', url: '/portal/[redacted]?checked=1', remoteAddress: '127.0.0.1' },
    });
    expect(JSON.stringify(lines())).not.toContain('s3cretT0ken');
  });

  it('at debug, never writes the token of a sign-in link spelt another way', async () => {
    const { lines, call } = await serverLoggingAt('debug');
    for (const path of [
      '/%70ortal/plt_s3cretT0ken',
      '/PORTAL/plt_s3cretT0ken?x=1',
      '//portal/plt_s3cretT0ken',
    ])
      await call('GET', path);
    expect(
      lines()
        .filter((line) => line.msg === 'incoming request')
        .map((line) => (line.req as { url: string }).url),
    ).toEqual(['/portal/[redacted]', '/portal/[redacted]?x=1', '/portal/[redacted]']);
    expect(JSON.stringify(lines())).not.toContain('s3cretT0ken');
  });
});
