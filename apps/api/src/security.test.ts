import { apiRoutes } from './app';
import { fillPath as fill, unfilled } from './test-support/route-paths';
import { API_KEY, callCreated, expectAbsent, useApi, type ApiHarness } from './test-support/api-harness';

// Driven by the route table, so a route added later is covered without touching this file: every operator
// route answers 401 without a valid key, every hook route 404 for another account's hook, every scoped route
// 404 for an unknown account, and no answer shows credentials. The first test fails for a route the others
// could not exercise properly (a public route nobody declared public, a body or path parameter the suite
// cannot fill), so "covered for free" stays true.

const TOKEN = 'sec-token-7c1d9e2f4a6b8c0d';
const PASSWORD = 'sec-password-3e5f7a9b';

/** A body that would pass validation, so a 401 or 404 cannot be a validation answer in disguise. */
const validBody: Record<string, unknown> = {
  createAccount: { name: 'Intruder' },
  createHook: { url: 'https://evil.example.com/x', format: 'json' },
  updateHook: { url: 'https://evil.example.com/x' },
  enableHook: { held: 'discard' },
  publishEvent: { type: 'call_created', data: callCreated() },
  requestErasure: { number: '+15550100' },
  createPortalLink: { read_only: true },
};

/** Routes anyone may call: liveness, readiness, metrics and the API document. Nothing else is public. */
const PUBLIC = new Set(['health', 'ready', 'metrics', 'openApi']);

async function world(api: ApiHarness) {
  const acct = await api.createAccount('Victim');
  const hook = await api.createHook(acct, { auth: { scheme: 'bearer', token: TOKEN } });
  const basic = await api.createHook(acct, { auth: { scheme: 'basic', username: 'u', password: PASSWORD } });
  await api.call('POST', `/v1/accounts/${acct}/events`, { type: 'call_created', data: callCreated() });
  return { acct, hook: hook.id, basic: basic.id };
}

describe('security', () => {
  const api = useApi();
  const routes = () => apiRoutes(api.deps);

  it('covers every route: public only where declared, a valid body and fillable path for every other', () => {
    const problems = routes().flatMap((route) => [
      ...(!route.auth && !PUBLIC.has(route.operationId)
        ? [`${route.operationId}: has no operator key check and is not declared public here`]
        : []),
      ...(route.body && !(route.operationId in validBody)
        ? [
            `${route.operationId}: add a valid body to validBody, or its 401/404 checks could be a 400 in disguise`,
          ]
        : []),
      ...unfilled(route).map(
        (param) => `${route.operationId}: teach fillPath() the path parameter {${param}}`,
      ),
    ]);
    expect(problems).toEqual([]);
  });

  it('answers 401 with WWW-Authenticate to every operator route without a valid key, changing nothing', async () => {
    const { acct, hook } = await world(api);
    const before = await api.keyCount();
    const protectedRoutes = routes().filter((r) => r.auth);
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of protectedRoutes)
      for (const key of [null, '', 'wrong', 'test-operator-key-0123456789abcde', 'Basic xyz']) {
        const res = await api.call(route.method, fill(route, acct, hook), validBody[route.operationId], {
          key,
        });
        expect([route.operationId, res.statusCode]).toEqual([route.operationId, 401]);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="hookline"');
        expect(res.json().error.code).toBe('UNAUTHORIZED');
      }
    const otherSchemes = await api.call('GET', `/v1/accounts/${acct}/hooks`, undefined, {
      key: null,
      headers: { authorization: 'Basic dGVzdDp0ZXN0' },
    });
    expect(otherSchemes.statusCode).toBe(401);
    expect(await api.keyCount()).toBe(before);
  });

  it('refuses a request with two Authorization headers, even when one holds the key', async () => {
    const { acct } = await world(api);
    for (const pair of [
      [`Bearer ${API_KEY}`, 'Bearer wrong'],
      ['Bearer wrong', `Bearer ${API_KEY}`],
    ]) {
      const res = await api.call('GET', `/v1/accounts/${acct}/hooks`, undefined, {
        key: null,
        headers: { authorization: pair },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'MALFORMED_REQUEST',
        message: 'The request has 2 Authorization headers; send one: Authorization: Bearer <key>',
      });
    }
  });

  it('answers 404 to every hook route for a hook of another account, changing nothing', async () => {
    const victim = await world(api);
    const intruder = await api.createAccount('Intruder');
    const before = await api.keyCount();
    const hookRoutes = routes().filter((r) => r.scope === 'hook');
    expect(hookRoutes.length).toBeGreaterThanOrEqual(6);
    for (const route of hookRoutes) {
      const res = await api.call(
        route.method,
        fill(route, intruder, victim.hook),
        validBody[route.operationId],
      );
      expect([route.operationId, res.statusCode]).toEqual([route.operationId, 404]);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(res.body).not.toContain(victim.acct);
      expectAbsent(res, TOKEN);
    }
    expect(await api.keyCount()).toBe(before);
    expect(await api.jobsOf(victim.hook)).toHaveLength(1);
  });

  it('answers 404 to every account route for an unknown or malformed account', async () => {
    const { hook } = await world(api);
    const before = await api.keyCount();
    for (const acct of [
      'acct_00000000000000000000',
      'acct_',
      '..',
      'acct_x%7D%7B',
      'hk_00000000000000000000',
    ])
      for (const route of routes().filter((r) => r.scope !== 'none')) {
        const res = await api.call(route.method, fill(route, acct, hook), validBody[route.operationId]);
        expect([route.operationId, acct, res.statusCode]).toEqual([route.operationId, acct, 404]);
      }
    expect(await api.keyCount()).toBe(before);
  });

  it('never shows hook credentials in any answer', async () => {
    const { acct, hook, basic } = await world(api);
    for (const route of routes()) {
      if (route.method === 'DELETE') continue;
      for (const id of [hook, basic]) {
        const res = await api.call(route.method, fill(route, acct, id), validBody[route.operationId]);
        expect(res.statusCode).toBeLessThan(500);
        expectAbsent(res, TOKEN);
        expectAbsent(res, PASSWORD);
        // Once-only secrets and customers' data: no cache on the way may keep an answer.
        expect([route.operationId, res.headers['cache-control']]).toEqual([route.operationId, 'no-store']);
      }
    }
    const unknown = await api.call('GET', `/v1/accounts/${acct}/nothing-here`);
    expect([unknown.statusCode, unknown.headers['cache-control']]).toEqual([404, 'no-store']);
  });

  it('never echoes the operator key', async () => {
    const { acct } = await world(api);
    const res = await api.call('POST', `/v1/accounts/${acct}/hooks`, { url: 'nope' });
    expectAbsent(res, 'test-operator-key-0123456789abcdef');
  });
});
