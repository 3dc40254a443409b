import type { AddressInfo } from 'node:net';
import { parseEgressProxy, proxyAnswers } from '@hookline/delivery';
import { startTinyproxy } from '@hookline/testing';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { buildApp } from '../app';
import { createApiDeps } from '../test-support/api-deps';
import { configFor, useApi } from '../test-support/api-harness';
import { httpCall } from '../test-support/http-call';

describe('readiness with an egress proxy', () => {
  const api = useApi();

  it('says on /readyz whether the egress proxy accepts connections, and stays ready when it does not', async () => {
    const proxy = await startTinyproxy({ connectPorts: [443] });
    api.ctx.onCleanup(() => proxy.close());
    const egress = parseEgressProxy(proxy.url.replace('http://', 'http://ops:hidden-pw@'));
    const deps = {
      ...createApiDeps(
        configFor(api.ctx.prefix),
        api.ctx.redis,
        createLogger('silent', 't'),
        createMetrics(),
        api.history.client,
      ),
      egressProxy: {
        shown: egress.shown,
        answers: (ms: number) => proxyAnswers(egress, ms),
        waiting: async () => undefined,
      },
    };
    api.ctx.onCleanup(() => deps.producer.close());
    api.ctx.onCleanup(() => deps.closeProbes());
    const app = api.ctx.closeLater(buildApp(deps));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const ready = () =>
      httpCall((app.server.address() as AddressInfo).port, { method: 'GET', path: '/readyz' });

    const up = await ready();
    expect(up.statusCode).toBe(200);
    expect(up.json().checks[3]).toEqual({
      name: 'egress_proxy',
      status: 'ok',
      detail: expect.stringMatching(
        new RegExp(`^127\\.0\\.0\\.1:${proxy.port} accepted a connection in \\d+ ms$`),
      ),
    });
    await proxy.stop();
    const down = await ready();
    expect(down.statusCode).toBe(200);
    expect(down.json().checks[3]).toEqual({
      name: 'egress_proxy',
      status: 'unreachable',
      detail: `127.0.0.1:${proxy.port} cannot be reached (ECONNREFUSED); deliveries wait for it`,
    });
    expect(down.body).not.toContain('hidden-pw');
  });
});
