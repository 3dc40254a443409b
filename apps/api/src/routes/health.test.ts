import { useApi } from '../test-support/api-harness';

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
      checks: [{ name: 'redis', status: 'ok', detail: expect.stringMatching(/^answered PING in \d+ ms$/) }],
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
