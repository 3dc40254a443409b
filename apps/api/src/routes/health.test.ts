import type { AddressInfo } from 'node:net';
import { pgClient } from '@hookline/history';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { buildApp } from '../app';
import { createApiDeps } from '../test-support/api-deps';
import { configFor, useApi } from '../test-support/api-harness';
import { httpCall } from '../test-support/http-call';

describe('health, readiness and metrics', () => {
  const api = useApi();

  it('answers /healthz and /readyz with 200 without a key; /readyz says what it checked', async () => {
    const health = await api.call('GET', '/healthz', undefined, { key: null });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await api.call('GET', '/readyz', undefined, { key: null });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      checks: [
        { name: 'redis', status: 'ok', detail: expect.stringMatching(/^answered PING in \d+ ms$/) },
        { name: 'postgres', status: 'ok', detail: expect.stringMatching(/^answered in \d+ ms$/) },
        { name: 'history_writer', status: 'ok', detail: 'no attempt record waiting' },
      ],
    });
  });

  it('says on /readyz that the history writer lags, and stays ready: records wait in Redis, nothing is lost', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    await api.deps.outbox.mark([hook.id], Date.now() - 120_000);
    const ready = await api.call('GET', '/readyz', undefined, { key: null });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks[2]).toEqual({
      name: 'history_writer',
      status: 'lagging',
      detail: expect.stringMatching(/^the oldest attempt record not yet in PostgreSQL has waited 1[23]\d s$/),
    });
  });

  it('answers /readyz 503 naming postgres when the history database does not answer', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const dead = pgClient({ url: 'postgres://postgres@127.0.0.1:1/test', schema: 'hookline' });
    api.ctx.onCleanup(() => dead.close());
    const deps = createApiDeps(
      configFor(api.ctx.prefix),
      api.ctx.redis,
      createLogger('silent', 't'),
      createMetrics(),
      dead,
    );
    api.ctx.onCleanup(() => deps.producer.close());
    api.ctx.onCleanup(() => deps.closeProbes());
    const app = api.ctx.closeLater(buildApp(deps));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await httpCall((app.server.address() as AddressInfo).port, {
      method: 'GET',
      path: '/readyz',
    });
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'HISTORY_UNAVAILABLE',
      message: 'Not ready: PostgreSQL does not answer',
      details: [{ field: 'postgres', message: expect.stringContaining('ECONNREFUSED') }],
    });
  });

  it('serves Prometheus metrics without a key', async () => {
    const res = await api.call('GET', '/metrics', undefined, { key: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('# TYPE hookline_events_accepted_total counter');
    expect(res.body).toContain('hookline_process_');
  });
});
