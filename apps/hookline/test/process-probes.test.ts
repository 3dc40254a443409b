import {
  freePorts,
  spawnEntry,
  startReceiver,
  startRedisServer,
  startTcpRelay,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  usePostgres,
  useRedis,
  waitUntil,
  type SpawnedProcess,
} from '@hookline/testing';
import { useHookline } from './fleet/harness';

// A worker's and a monitor's probes, on HOOKLINE_METRICS_PORT, answer as the HTTP tier's do (same bodies, same
// content type), so one probe configuration reads every process: /healthz while the process runs; /readyz 200
// with what it checked, or 503 naming what is not ready, each check bounded (READY_WITHIN_MS, 2 s).

const JSON_TYPE = 'application/json; charset=utf-8';
const SECRET_KEY = 'a'.repeat(64);

async function probe(port: number, path: '/healthz' | '/readyz', host = '127.0.0.1') {
  const res = await fetch(`http://${host}:${port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The metrics port a process logged once it listens (`"metricsPort":…`). */
async function metricsPortOf(process: SpawnedProcess, line: string): Promise<number> {
  await process.waitForOutput(line);
  return Number(/"metricsPort":(\d+)/.exec(process.output())![1]);
}

/** Waits until /readyz answers `status`, and gives that answer. */
const readyzAnswers = (port: number, status: number, what: string) =>
  waitUntil(async () => {
    const answer = await probe(port, '/readyz');
    return answer.status === status ? answer : undefined;
  }, what);

/** A 503 of /readyz, as the HTTP tier's: `{"error":{"code","message","details"}}`, naming what is not ready. */
function expectNotReady(
  answer: Awaited<ReturnType<typeof probe>>,
  error: { code: string; message: string; details: unknown[] },
) {
  expect(answer.status).toBe(503);
  expect(answer.type).toBe(JSON_TYPE);
  expect(JSON.parse(answer.body)).toEqual({ error });
}

const notAnswering = (field: 'redis' | 'postgres') => ({
  field,
  message: field === 'redis' ? 'no answer to PING within 2000 ms' : 'no answer within 2000 ms',
});

const STOPPING = {
  code: 'STOPPING',
  message: 'Not ready: this process is stopping',
  details: [{ field: 'process', message: 'stopping: it takes no new work and finishes the work in hand' }],
};

describe("a worker's probes", () => {
  const ctx = useRedis('probes');

  function spawnWorker(env: Record<string, string>): SpawnedProcess {
    const worker = spawnEntry('apps/hookline/src/worker-main.ts', {
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: SECRET_KEY,
      HOOKLINE_METRICS_PORT: '0',
      ...env,
    });
    ctx.onCleanup(async () => {
      worker.kill('SIGKILL');
      await worker.exited;
    });
    return worker;
  }

  it('answers /healthz and /readyz with the HTTP tier’s bodies; /readyz says it asked Redis', async () => {
    const port = await metricsPortOf(spawnWorker({}), 'worker started');
    expect(await probe(port, '/healthz')).toEqual({ status: 200, type: JSON_TYPE, body: '{"status":"ok"}' });
    const ready = await readyzAnswers(port, 200, 'the worker to be ready');
    expect(ready.type).toBe(JSON_TYPE);
    expect(JSON.parse(ready.body)).toEqual({
      status: 'ok',
      checks: [{ name: 'redis', status: 'ok', detail: expect.stringMatching(/^answered PING in \d+ ms$/) }],
    });
    // As the HTTP tier answers them: a query parameter is named, another method or path has no route.
    const asked = async (path: string, method = 'GET') => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await asked('/readyz?probe=1&x=2')).toEqual({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request: probe, x',
          details: [
            { field: 'probe', message: 'is not a known field' },
            { field: 'x', message: 'is not a known field' },
          ],
        },
      },
    });
    expect(await asked('/healthz', 'POST')).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'No route POST /healthz' } },
    });
    expect(await asked('/readyz/')).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'No route GET /readyz/' } },
    });
  }, 30_000);

  it('answers /readyz 503 naming Redis while nothing listens at REDIS_URL; /healthz stays 200', async () => {
    const port = await metricsPortOf(spawnWorker({ REDIS_URL: 'redis://127.0.0.1:1' }), 'worker started');
    expectNotReady(await probe(port, '/readyz'), {
      code: 'REDIS_UNAVAILABLE',
      message: 'Not ready: Redis does not answer',
      details: [{ field: 'redis', message: expect.stringMatching(/^not connected \(\w+\)$/) }],
    });
    expect((await probe(port, '/healthz')).status).toBe(200);
  }, 30_000);

  it('answers /readyz 503 within its bound while its Redis is frozen (SIGSTOP), and 200 once it is back', async () => {
    const redis = await startRedisServer();
    ctx.onCleanup(() => redis.kill());
    const port = await metricsPortOf(
      spawnWorker({ REDIS_URL: `redis://127.0.0.1:${redis.port}` }),
      'worker started',
    );
    await readyzAnswers(port, 200, 'the worker to be ready');
    // Without its bound, the PING would wait for the server for ever, and the probe with it.
    expectNotReady(await redis.whileFrozen(() => probe(port, '/readyz')), {
      code: 'REDIS_UNAVAILABLE',
      message: 'Not ready: Redis does not answer',
      details: [notAnswering('redis')],
    });
    await readyzAnswers(port, 200, 'the worker to be ready again');
  }, 30_000);

  it('listens on HOOKLINE_METRICS_HOST alone', async () => {
    const [port] = await freePorts(1);
    const worker = spawnWorker({ HOOKLINE_METRICS_HOST: '127.0.0.2', HOOKLINE_METRICS_PORT: String(port) });
    await worker.waitForOutput('worker started');
    expect((await probe(port!, '/healthz', '127.0.0.2')).status).toBe(200);
    await expect(probe(port!, '/healthz', '127.0.0.1')).rejects.toMatchObject({
      cause: { code: 'ECONNREFUSED' },
    });
  }, 30_000);
});

describe('a worker asked to stop', () => {
  const h = useHookline();

  it('answers /readyz 503 STOPPING while it finishes the attempt in flight, then exits 0', async () => {
    const receiver = await startReceiver(() => ({ kind: 'hang' }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url() });
    const worker = h.spawnWorker();
    const port = await metricsPortOf(worker, 'worker started');
    await readyzAnswers(port, 200, 'the worker to be ready');
    await h.publish(account.id, { call_id: 'in-flight' });
    await receiver.waitFor(1);

    worker.kill('SIGTERM');
    expectNotReady(await readyzAnswers(port, 503, 'the stopping worker to say it is not ready'), STOPPING);
    // Still alive meanwhile.
    expect((await probe(port, '/healthz')).status).toBe(200);
    // The endpoint hangs up: the attempt ends, and with it the worker.
    await receiver.close();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 40_000);
});

describe("a monitor's probes", () => {
  const ctx = useRedis('monitor-probes');
  const pg = usePostgres('monitorprobes');

  it('answers /readyz 503 naming PostgreSQL, then Redis too, each within its bound; STOPPING once asked to stop', async () => {
    const redis = await startRedisServer();
    ctx.onCleanup(() => redis.kill());
    // The shared PostgreSQL cannot be frozen: the monitor reaches it through a relay that can be held.
    const database = new URL(TEST_DATABASE_URL);
    const relay = await startTcpRelay({ host: database.hostname, port: Number(database.port || 5432) });
    ctx.onCleanup(() => relay.close());
    database.host = `127.0.0.1:${relay.port}`;
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: SECRET_KEY,
      DATABASE_URL: database.href,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      HOOKLINE_METRICS_PORT: '0',
    });
    const stop = async () => {
      monitor.kill('SIGKILL');
      await monitor.exited;
      // Its sessions end with the relay's connections, before the schema is dropped.
      await relay.close();
    };
    ctx.onCleanup(stop);
    const port = await metricsPortOf(monitor, 'monitor listening for metrics');
    expect(await probe(port, '/healthz')).toEqual({ status: 200, type: JSON_TYPE, body: '{"status":"ok"}' });
    const ready = await readyzAnswers(port, 200, 'the monitor to be ready');
    expect(ready.type).toBe(JSON_TYPE);
    expect(JSON.parse(ready.body)).toEqual({
      status: 'ok',
      checks: [
        { name: 'redis', status: 'ok', detail: expect.stringMatching(/^answered PING in \d+ ms$/) },
        { name: 'postgres', status: 'ok', detail: expect.stringMatching(/^answered in \d+ ms$/) },
      ],
    });

    relay.hold();
    expectNotReady(await probe(port, '/readyz'), {
      code: 'HISTORY_UNAVAILABLE',
      message: 'Not ready: PostgreSQL does not answer',
      details: [notAnswering('postgres')],
    });

    redis.freeze();
    expectNotReady(await probe(port, '/readyz'), {
      code: 'REDIS_UNAVAILABLE',
      message: 'Not ready: Redis and PostgreSQL do not answer',
      details: [notAnswering('redis'), notAnswering('postgres')],
    });
    expect((await probe(port, '/healthz')).status).toBe(200);

    // Its rounds in hand wait on the frozen Redis: it is stopping for as long as that lasts.
    monitor.kill('SIGTERM');
    const stopping = await waitUntil(async () => {
      const answer = await probe(port, '/readyz');
      return JSON.parse(answer.body).error?.code === 'STOPPING' ? answer : undefined;
    }, 'the stopping monitor to say so');
    expectNotReady(stopping, STOPPING);
    await stop();
  }, 60_000);
});
