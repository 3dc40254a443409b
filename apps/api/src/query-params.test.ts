import { apiRoutes } from './app';
import { useApi } from './test-support/api-harness';
import { fillPath, unfilled } from './test-support/route-paths';

// Driven by the route table, so a route added later is held to it without touching this file: every route
// refuses a query parameter it does not take, with the same 400 naming it, before it does anything; routes
// that take no query at all included.

const refused = (name: string) => ({
  error: {
    code: 'VALIDATION_FAILED',
    message: `Invalid request: ${name}`,
    details: [{ field: name, message: 'is not a known field' }],
  },
});

describe('unknown query parameters', () => {
  const api = useApi();

  it('are refused by every route with 400 naming them, changing nothing', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const routes = apiRoutes(api.deps);
    expect(routes.flatMap(unfilled)).toEqual([]);
    const before = await api.keyCount();
    for (const route of routes) {
      const res = await api.call(route.method, `${fillPath(route, acct, hook.id)}?zz_unknown=1`);
      expect([route.operationId, res.statusCode, res.json()]).toEqual([
        route.operationId,
        400,
        refused('zz_unknown'),
      ]);
    }
    expect(await api.keyCount()).toBe(before);
    expect(await api.jobsOf(hook.id)).toEqual([]);
  });

  it("names each one, a known parameter of another route included, beside the route's own", async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const getHook = await api.call('GET', `/v1/accounts/${acct}/hooks/${hook.id}?limit=5&verbose=1`);
    expect(getHook.statusCode).toBe(400);
    expect(getHook.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid request: limit, verbose',
        details: [
          { field: 'limit', message: 'is not a known field' },
          { field: 'verbose', message: 'is not a known field' },
        ],
      },
    });
    const healthz = await api.call('GET', '/healthz?probe=1', undefined, { key: null });
    expect([healthz.statusCode, healthz.json()]).toEqual([400, refused('probe')]);
    // A route with a query: its own parameters still work beside nothing else.
    expect((await api.call('GET', `/v1/accounts/${acct}/hooks?limit=1`)).statusCode).toBe(200);
    const listed = await api.call('GET', `/v1/accounts/${acct}/hooks?limit=1&page=2`);
    expect([listed.statusCode, listed.json()]).toEqual([400, refused('page')]);
    // A parameter is not a list: given twice, it is named as such (each value alone would do); an unknown
    // one given twice is still unknown.
    const twice = await api.call('GET', `/v1/accounts/${acct}/hooks?limit=5&limit=6&page=1&page=2`);
    expect([twice.statusCode, twice.json().error.details]).toEqual([
      400,
      expect.arrayContaining([
        { field: 'limit', message: 'must be given once' },
        { field: 'page', message: 'is not a known field' },
      ]),
    ]);
    // After the key and the scope, as any other input: 401 without the key, 404 for another account's hook.
    const theirs = `/v1/accounts/${await api.createAccount('Other')}/hooks/${hook.id}?zz=1`;
    expect((await api.call('GET', theirs, undefined, { key: null })).statusCode).toBe(401);
    expect((await api.call('GET', theirs)).statusCode).toBe(404);
  });
});
