import { apiRoutes } from './app';
import { methodsByPath } from './method-not-allowed';
import { useApi } from './test-support/api-harness';
import { fillPath } from './test-support/route-paths';

describe('a method a path does not serve', () => {
  const api = useApi();

  it('answers 405 with Allow listing what the path serves, in the catalogue shape, uncached', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const hookUrl = `/v1/accounts/${acct}/hooks/${hook.id}`;
    for (const [method, path, allow] of [
      ['PUT', hookUrl, 'GET, HEAD, PATCH, DELETE'],
      ['POST', hookUrl, 'GET, HEAD, PATCH, DELETE'],
      ['DELETE', '/v1/event-types', 'GET, HEAD'],
      ['GET', '/v1/accounts', 'POST'],
      ['HEAD', '/v1/accounts', 'POST'],
      ['OPTIONS', `/v1/accounts/${acct}/hooks`, 'GET, HEAD, POST'],
      ['PATCH', `/v1/accounts/${acct}/hooks/${hook.id}/enable`, 'POST'],
      // Any id reaches the answer, as any id reaches its route: what the path serves does not depend on it.
      ['PUT', '/v1/accounts/acct_00000000000000000000/hooks/nope', 'GET, HEAD, PATCH, DELETE'],
    ] as const) {
      const res = await api.call(method, path);
      expect([method, path, res.statusCode, res.headers.allow, res.headers['cache-control']]).toEqual([
        method,
        path,
        405,
        allow,
        'no-store',
      ]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (method !== 'HEAD')
        expect(res.json()).toEqual({
          error: {
            code: 'METHOD_NOT_ALLOWED',
            message: `Method ${method} is not served at ${path}; it serves ${allow}`,
          },
        });
    }
  });

  it('is told before the body is read: the method is what is wrong, whatever was sent', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const before = await api.keyCount();
    const res = await api.call('PUT', `/v1/accounts/${acct}/hooks/${hook.id}`, undefined, {
      raw: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expect([res.statusCode, res.json().error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    expect(await api.keyCount()).toBe(before);
  });

  it('asks for the key first under /v1, as for a path that does not exist; the probes need none', async () => {
    const acct = await api.createAccount();
    for (const path of [`/v1/accounts/${acct}/hooks/hk_00000000000000000000`, '/v1/event-types']) {
      const res = await api.call('PUT', path, undefined, { key: null });
      expect([path, res.statusCode, res.headers.allow, res.json().error.code]).toEqual([
        path,
        401,
        undefined,
        'UNAUTHORIZED',
      ]);
    }
    const healthz = await api.call('POST', '/healthz', undefined, { key: null });
    expect([healthz.statusCode, healthz.headers.allow]).toEqual([405, 'GET, HEAD']);
    const openapi = await api.call('DELETE', '/openapi.json', undefined, { key: null });
    expect([openapi.statusCode, openapi.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('leaves a path no route serves a 404, and every served method served', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    for (const [method, path] of [
      ['PUT', '/v1/accounts/acct_00000000000000000000/hooks/hk_00000000000000000000/nope'],
      ['PUT', '/v1/nope'],
      ['POST', '/nope'],
    ] as const) {
      const res = await api.call(method, path);
      expect([method, path, res.statusCode, res.headers.allow, res.json().error]).toEqual([
        method,
        path,
        404,
        undefined,
        { code: 'NOT_FOUND', message: `No route ${method} ${path}` },
      ]);
    }
    const head = await api.call('HEAD', `/v1/accounts/${acct}/hooks/${hook.id}`);
    expect([head.statusCode, head.body]).toEqual([200, '']);
    const routes = apiRoutes(api.deps);
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const res = await api.call(route.method, fillPath(route, acct, hook.id));
      expect([route.operationId, res.statusCode]).not.toEqual([route.operationId, 405]);
    }
  });

  // The 405 routes take the real routes' path patterns: that stands for "this address is served" only while no
  // two patterns can match one address (a static segment of one where the other has a parameter), or a method
  // served at one pattern would be refused at the other.
  it('relies on no two paths of the table matching one address', () => {
    const segments = [...methodsByPath(apiRoutes(api.deps)).keys()].map((path) => path.split('/'));
    const isParam = (segment: string) => segment.startsWith('{');
    const overlaps = segments.flatMap((a, i) =>
      segments
        .slice(i + 1)
        .filter(
          (b) => a.length === b.length && a.every((s, k) => s === b[k] || isParam(s) || isParam(b[k] ?? '')),
        )
        .map((b) => `${a.join('/')} ~ ${b.join('/')}`),
    );
    expect(overlaps).toEqual([]);
  });
});
