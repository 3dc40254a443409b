import { apiRoutes } from './app';
import { useApi } from './test-support/api-harness';
import { attemptAt } from './test-support/attempt-records';
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

describe('query values with a bad percent escape', () => {
  const api = useApi();
  const message =
    'is not a valid query value: a % must begin a percent-encoded UTF-8 character, such as %20 or %C3%A9 ' +
    '(a % itself is %25)';

  // Fastify's parser kept such a value as given: `call_id=%zz` was searched for as the text and answered an empty
  // 200, where the same escape in the path is refused.
  it('are refused with 400 naming the parameter, as a bad escape in the path is', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const log = `/v1/accounts/${acct}/deliveries`;
    for (const [query, fields] of [
      ['call_id=%E0%A4%A', ['call_id']],
      ['call_id=%zz', ['call_id']],
      ['call_id=ok&event_id=100%', ['event_id']],
      ['limit=5%', ['limit']],
      // Named once, given twice; an unknown one is named as unknown, whatever its value.
      ['call_id=%zz&call_id=%zz&zz_unknown=%zz', ['zz_unknown', 'call_id']],
      // The name as the parser gives it: decoded, + a space.
      ['call%5Fid=%zz', ['call_id']],
    ] as const) {
      const res = await api.call('GET', `${log}?${query}`);
      expect([query, res.statusCode, res.headers['cache-control'], res.json()]).toEqual([
        query,
        400,
        'no-store',
        {
          error: {
            code: 'VALIDATION_FAILED',
            message: `Invalid request: ${fields.join(', ')}`,
            details: fields.map((field) =>
              field === 'zz_unknown' ? { field, message: 'is not a known field' } : { field, message },
            ),
          },
        },
      ]);
    }
    const hookLog = await api.call('GET', `/v1/accounts/${acct}/hooks/${hook.id}/deliveries?call_id=%zz`);
    expect([hookLog.statusCode, hookLog.json().error.details]).toEqual([
      400,
      [{ field: 'call_id', message }],
    ]);
  });

  it('a % written %25, or a + for a space, still finds what it names', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const record = attemptAt(acct, hook.id, 1, { call_id: '100% sure' });
    await api.history.writer.write([record, attemptAt(acct, hook.id, 2)]);
    for (const query of ['call_id=100%25%20sure', 'call_id=100%25+sure']) {
      const res = await api.call('GET', `/v1/accounts/${acct}/deliveries?${query}`);
      expect([
        query,
        res.statusCode,
        res.json().data.map((r: { attempt_id: string }) => r.attempt_id),
      ]).toEqual([query, 200, [record.attempt_id]]);
    }
  });
});
