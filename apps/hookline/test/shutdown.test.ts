import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import {
  spawnEntry,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  usePostgres,
  startRedisServer,
  useRedis,
  waitUntil,
} from '@hookline/testing';

const API_KEY = 'k'.repeat(32);

/** One request over `agent`, so that its connection stays open (keep-alive) once answered. */
function call(agent: Agent, port: number, method: string, path: string, body: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

// The production HTTP tier on SIGTERM: requests in flight get HOOKLINE_HTTP_DRAIN_MS, then every connection
// left is closed and the process exits 0. Without that bound, a client that sent half a request and went
// quiet holds the process past an orchestrator's grace (Kubernetes: 30 s, then SIGKILL).
describe('the HTTP tier on SIGTERM', () => {
  const ctx = useRedis('shutdown');
  const pg = usePostgres('shutdown');

  it('exits 0 despite a half-sent request and an idle keep-alive connection; earlier requests were answered', async () => {
    const server = spawnEntry('apps/hookline/src/http-main.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
      HOOKLINE_HTTP_DRAIN_MS: '1000',
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      LOG_LEVEL: 'info',
    });
    ctx.onCleanup(async () => {
      server.kill('SIGKILL');
      await server.exited;
    });
    await server.waitForOutput('Server listening at');
    const port = Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())![1]);
    // The request client fails fast (503) until it has connected to Redis.
    await waitUntil(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok,
      'the HTTP tier to be ready',
    );

    // Headers begun, never finished. It is sent first: the server reads it no later than the request below,
    // which needs a Redis round trip before its answer, so by then this one is being parsed (not idle).
    const half = connect(port, '127.0.0.1');
    ctx.onCleanup(() => half.destroy());
    half.on('error', () => undefined);
    await once(half, 'connect');
    half.write('POST /v1/events HTTP/1.1\r\nHost: x\r\n');

    const agent = new Agent({ keepAlive: true });
    ctx.onCleanup(() => agent.destroy());
    const created = await call(agent, port, 'POST', '/v1/accounts', { name: 'Before SIGTERM' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toMatchObject({ name: 'Before SIGTERM' });
    await waitUntil(
      () => Object.values(agent.freeSockets).flat().length === 1,
      'the answered connection to stay open, idle',
    );

    server.kill('SIGTERM');
    // Jest's time limit is the bound: without the drain bound, close() waits on the half-sent request.
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('"msg":"stopped"');
  }, 20000);
});

// A worker asked to stop while Redis is down: closing its clients would wait for a reconnect that never
// comes. It must still be gone within its bound (the delivery deadline plus 5 s), whatever Redis does.
describe('a worker on SIGTERM while Redis is down', () => {
  it('exits within its bound instead of hanging', async () => {
    const worker = spawnEntry('apps/hookline/src/worker-main.ts', {
      REDIS_URL: 'redis://127.0.0.1:1',
      HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
      HOOKLINE_METRICS_PORT: '0',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '1000',
    });
    await worker.waitForOutput('worker started');
    // Long enough for its clients to be in their reconnect back-off, where closing them never settles.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    worker.kill('SIGTERM');
    // It used to never exit (its blocking client waited for a reconnect); now it exits by itself, cleanly
    // or, if a close still hangs, when its bound runs out. Either way well within this test's 30 s.
    const { code, signal } = await worker.exited;
    expect(signal).toBeNull();
    expect([0, 1]).toContain(code);
  }, 30_000);
});

describe('a monitor on SIGTERM while Redis is down', () => {
  const pg = usePostgres('monitorstop');

  it('gives its work in flight a few seconds, then exits 0', async () => {
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: 'redis://127.0.0.1:1',
      HOOKLINE_SECRET_KEY: 'a'.repeat(64),
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      HOOKLINE_METRICS_PORT: '0',
    });
    await monitor.waitForOutput('monitor started');
    // Its loops' passes are then waiting on commands no Redis will answer.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    monitor.kill('SIGTERM');
    // It used to wait them out until its 30 s bound and exit 1.
    const { code, signal } = await monitor.exited;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(monitor.output()).toContain('stopping with work in flight: Redis does not answer');
  }, 45_000);

  // A frozen Redis (SIGSTOP, a paused VM) keeps its connections: they look ready, and the 3 s rule did not
  // apply (30 s, then exit 1).
  it('gives its work in flight a few seconds when its Redis is frozen too, then exits 0', async () => {
    const redis = await startRedisServer();
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      HOOKLINE_SECRET_KEY: 'a'.repeat(64),
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      HOOKLINE_METRICS_PORT: '0',
    });
    await monitor.waitForOutput('monitor started');
    redis.freeze();
    try {
      // Its loops' next passes then wait on commands the frozen server never answers.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      monitor.kill('SIGTERM');
      const { code, signal } = await monitor.exited;
      expect([code, signal]).toEqual([0, null]);
      expect(monitor.output()).toContain('stopping with work in flight: Redis does not answer');
    } finally {
      redis.thaw();
      monitor.kill('SIGKILL');
      await redis.kill();
    }
  }, 45_000);
});
