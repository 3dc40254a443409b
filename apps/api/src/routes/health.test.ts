import { useApi } from '../test-support/api-harness';

describe('health, readiness and metrics', () => {
  const api = useApi();

  it('answers /healthz and /readyz with 200 without a key', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await api.call('GET', path, undefined, { key: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
  });

  it('serves Prometheus metrics without a key', async () => {
    const res = await api.call('GET', '/metrics', undefined, { key: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('# TYPE hookline_events_accepted_total counter');
    expect(res.body).toContain('hookline_process_');
  });
});
