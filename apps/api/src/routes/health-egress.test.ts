import type { AddressInfo } from 'node:net';
import { parseEgressProxy, proxyAnswers } from '@hookline/delivery';
import type { EgressFleetWait } from '@hookline/redis';
import { startTinyproxy } from '@hookline/testing';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { buildApp } from '../app';
import { createApiDeps } from '../test-support/api-deps';
import { configFor, useApi } from '../test-support/api-harness';
import { httpCall } from '../test-support/http-call';

describe('readiness with an egress proxy', () => {
  const api = useApi();

  /** The HTTP tier with a real proxy in front of nothing, and what the workers last met (`waiting`). */
  async function withProxy(waiting: () => Promise<EgressFleetWait | undefined>) {
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
        waiting,
      },
    };
    api.ctx.onCleanup(() => deps.producer.close());
    api.ctx.onCleanup(() => deps.closeProbes());
    const app = api.ctx.closeLater(buildApp(deps));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const ready = () =>
      httpCall((app.server.address() as AddressInfo).port, { method: 'GET', path: '/readyz' });

    return { proxy, ready };
  }

  it('says on /readyz whether the egress proxy accepts connections, and stays ready when it does not', async () => {
    const { proxy, ready } = await withProxy(async () => undefined);
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

  it('tells a proxy that came back from one that refuses, while hooks still wait on it', async () => {
    let waiting: EgressFleetWait = {
      hooks: 2,
      cause: 'unreachable',
      reason: 'cannot be reached: ECONNREFUSED',
    };
    const { proxy, ready } = await withProxy(async () => waiting);
    const back = await ready();
    expect(back.json().checks[3]).toEqual({
      name: 'egress_proxy',
      status: 'unreachable',
      detail:
        `127.0.0.1:${proxy.port} accepts connections again; 2 hooks wait for the next try (at most 30 s ` +
        'away), after the last could not reach it: cannot be reached: ECONNREFUSED',
    });
    waiting = { hooks: 1, cause: 'refused', reason: 'the proxy answered 407' };
    const refusing = await ready();
    expect(refusing.json().checks[3]).toEqual({
      name: 'egress_proxy',
      status: 'refused',
      detail: `127.0.0.1:${proxy.port} accepts connections but keeps deliveries back: 1 hook waits on it; the last try: the proxy answered 407`,
    });
  });
});
