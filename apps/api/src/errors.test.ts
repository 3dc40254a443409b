import { gzipSync } from 'node:zlib';
import { createFailFastRedis } from '@hookline/redis';
import { pgClient } from '@hookline/history';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { createApiDeps } from './test-support/api-deps';
import { callCreated, configFor, useApi } from './test-support/api-harness';
import { serveApi } from './test-support/failover-api';

describe('errors in the catalogue shape', () => {
  const api = useApi();

  describe('request bodies', () => {
    it('answers 413 over 64 KiB, queueing nothing', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const big = { type: 'call_created', data: callCreated({ from_cnam: 'x'.repeat(70_000) }) };
      const res = await api.call('POST', `/v1/accounts/${acct}/events`, big);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });

    it('answers 413 for a chunked body that grows past 64 KiB', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', `/v1/accounts/${acct}/hooks`, undefined, {
        raw: `{"url":"https://x.example.com","format":"json","description":"${'d'.repeat(70_000)}"}`,
        headers: { 'transfer-encoding': 'chunked' },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      expect((await api.call('GET', `/v1/accounts/${acct}/hooks`)).json().data).toEqual([]);
    });

    it('takes a body of exactly 64 KiB', async () => {
      const acct = await api.createAccount();
      const json = JSON.stringify({ type: 'call_created', data: callCreated() });
      const res = await api.call('POST', `/v1/accounts/${acct}/events`, undefined, {
        raw: json + ' '.repeat(65536 - json.length),
      });
      expect(res.statusCode).toBe(202);
    });

    it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x']])(
      'answers 415 for Content-Type %s, creating nothing',
      async (contentType) => {
        const acct = await api.createAccount();
        const res = await api.call('POST', `/v1/accounts/${acct}/hooks`, undefined, {
          raw: '{"url":"https://x.example.com","format":"json"}',
          headers: { 'content-type': contentType },
        });
        expect(res.statusCode).toBe(415);
        expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
        expect((await api.call('GET', `/v1/accounts/${acct}/hooks`)).json().data).toEqual([]);
      },
    );

    // JSON is UTF-8: a body declared in another charset was read as UTF-8 all the same, and stored as such.
    it.each([
      ['application/json; charset=iso-8859-1', 'Content-Type charset iso-8859-1 is not supported'],
      ['application/json;charset="UTF-16"', 'Content-Type charset UTF-16 is not supported'],
      ['application/json; charset=@@', 'Content-Type charset other than utf-8 is not supported'],
      ['application/json; charset=utf-8; charset=latin1', 'Content-Type charset latin1 is not supported'],
    ])('answers 415 for %s, creating nothing', async (contentType, words) => {
      const before = await api.keyCount();
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: Buffer.from('{"name":"Café"}', 'utf8'),
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `${words}: send the body as UTF-8 (Content-Type: application/json)`,
      });
      expect(await api.keyCount()).toBe(before);
    });

    it('refuses two Content-Type headers, whichever is JSON', async () => {
      const before = await api.keyCount();
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: '{"name":"Two"}',
        headers: { 'content-type': ['application/json', 'text/plain'] },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.message).toBe(
        'The request has 2 Content-Type headers; send one: Content-Type: application/json',
      );
      expect(await api.keyCount()).toBe(before);
    });

    it.each([
      ['application/json; charset=utf-8'],
      ['application/json; charset="UTF8"'],
      ['Application/JSON'],
    ])('takes %s', async (contentType) => {
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: Buffer.from('{"name":"Café"}', 'utf8'),
        headers: { 'content-type': contentType },
      });
      expect([res.statusCode, res.json().name]).toEqual([201, 'Café']);
    });

    // Nothing decodes a Content-Encoding: the compressed bytes used to reach the JSON parser, which answered
    // "not valid UTF-8". Refused before the body is read, on every route that takes one, naming the header.
    it.each([
      ['gzip', 'gzip'],
      ['GZip', 'gzip'],
      ['br', 'br'],
      ['gzip, identity', 'gzip'],
      ['identity, deflate,  gzip', 'deflate, gzip'],
      ['x-"quoted"', 'other than identity'],
    ])('answers 415 for Content-Encoding %s, creating nothing', async (coding, named) => {
      const before = await api.keyCount();
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: gzipSync('{"name":"gz"}'),
        headers: { 'content-encoding': coding },
      });
      expect(res.statusCode).toBe(415);
      expect(res.headers['accept-encoding']).toBe('identity');
      expect(res.json()).toEqual({
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Content-Encoding ${named} is not supported: send the body uncompressed`,
        },
      });
      expect(await api.keyCount()).toBe(before);
    });

    it('refuses a coded body on a hook change and an event too, after asking for the key', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const coded = (body: unknown) => ({
        raw: gzipSync(JSON.stringify(body)),
        headers: { 'content-encoding': 'gzip' },
      });
      const hookUrl = `/v1/accounts/${acct}/hooks/${hook.id}`;
      for (const res of [
        await api.call('PATCH', hookUrl, undefined, coded({ description: 'gz' })),
        await api.call('POST', `/v1/accounts/${acct}/events`, undefined, coded({ type: 'call_created' })),
        // Chunked, without a length: still a body, still refused.
        await api.call('POST', `/v1/accounts/${acct}/hooks`, undefined, {
          ...coded({ url: 'https://x.example.com', format: 'json' }),
          headers: { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' },
        }),
      ]) {
        expect(res.statusCode).toBe(415);
        expect(res.json().error.message).toBe(
          'Content-Encoding gzip is not supported: send the body uncompressed',
        );
      }
      expect((await api.call('GET', hookUrl)).json().description).toBeUndefined();
      expect(await api.jobsOf(hook.id)).toEqual([]);
      const stranger = await api.call('POST', '/v1/accounts', undefined, {
        ...coded({ name: 'gz' }),
        key: null,
      });
      expect(stranger.statusCode).toBe(401);
    });

    it('takes a body sent with Content-Encoding identity, in any case', async () => {
      for (const coding of ['identity', 'Identity']) {
        const res = await api.call('POST', '/v1/accounts', undefined, {
          raw: '{"name":"Acme"}',
          headers: { 'content-encoding': coding },
        });
        expect([coding, res.statusCode]).toEqual([coding, 201]);
      }
    });

    it('takes application/json with a charset', async () => {
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: '{"name":"Acme"}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.statusCode).toBe(201);
    });

    it('answers 400 INVALID_JSON for malformed JSON on any route', async () => {
      const res = await api.call('POST', '/v1/accounts', undefined, { raw: "{'name': 'Acme'}" });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
    });

    // Valid JSON, nested deeper than the parser can follow (30,000 arrays fit in 64 KiB): not "not valid JSON".
    it('says a body nested too deeply is nested too deeply', async () => {
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: `{"name":${'['.repeat(30000)}${']'.repeat(30000)}}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'INVALID_JSON',
        message: 'Request body is nested too deeply to be read',
      });
    });

    it('refuses a __proto__ key as an unknown field', async () => {
      const res = await api.call('POST', '/v1/accounts', undefined, {
        raw: '{"name":"Acme","__proto__":{"email":"x@example.com"}}',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: '__proto__', message: 'is not a known field' }]);
    });

    // 64 KiB holds thousands of unknown fields; a 59 KB request had a 346 KB answer naming each one.
    it('names enough of thousands of bad fields to act on, in an answer smaller than the request', async () => {
      const fields = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 1]));
      const raw = JSON.stringify({ name: 'Acme', ...fields });
      const res = await api.call('POST', '/v1/accounts', undefined, { raw });
      expect(res.statusCode).toBe(400);
      expect(res.body.length).toBeLessThan(raw.length);
      const { message, details } = res.json().error;
      expect(message).toMatch(/^Invalid request: f0, f1, .*, f19 and 4980 more$/);
      expect(details).toHaveLength(101);
      expect(details[0]).toEqual({ field: 'f0', message: 'is not a known field' });
      expect(details[100]).toEqual({ field: '(more)', message: '4900 more problems are not listed' });
    });
  });

  describe('routes', () => {
    // A method a served path does not take answers 405 instead (method-not-allowed.test.ts).
    it('answers 404 JSON for unknown routes', async () => {
      for (const [method, path] of [
        ['GET', '/nope'],
        ['GET', '/v1'],
        ['PUT', '/v1/accounts/nope'],
        ['GET', '/v1/accounts/acct_00000000000000000000/hooks/hk_00000000000000000000/nope'],
      ] as const) {
        const res = await api.call(method, path);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
      // A long unknown path is quoted as far as anyone needs to recognise it.
      const long = await api.call('GET', `/v1/${'x'.repeat(5000)}`);
      expect(long.json().error.message).toBe(`No route GET /v1/${'x'.repeat(196)}…`);
    });

    // The router matched no parameter over 100 characters: a long id got the catch-all's "No route GET
    // /v1/accounts/…" (the whole path quoted back) where any other unknown id gets its route's own 404.
    it('answers an unknown id of any length with its route’s own 404, not quoting the path', async () => {
      const acct = await api.createAccount();
      const long = 'a'.repeat(200);
      for (const [path, message] of [
        [`/v1/accounts/${long}/hooks`, 'Account not found'],
        [`/v1/accounts/acct_${long}/activity`, 'Account not found'],
        [`/v1/accounts/${acct}/hooks/${long}`, 'Hook not found'],
        [`/v1/accounts/${acct}/hooks/hk_${long}/deliveries`, 'Hook not found'],
        [`/v1/accounts/${acct}/hooks/${'%C3%A9'.repeat(2000)}`, 'Hook not found'],
      ] as const) {
        const res = await api.call('GET', path);
        expect([path.length, res.statusCode, res.json()]).toEqual([
          path.length,
          404,
          { error: { code: 'NOT_FOUND', message } },
        ]);
      }
      const patched = await api.call('PATCH', `/v1/accounts/${acct}/hooks/${long}`, { description: 'x' });
      expect(patched.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Hook not found' } });
    });

    it('asks for the key before saying a /v1 path does not exist', async () => {
      for (const [method, path] of [
        ['GET', '/v1'],
        ['GET', '/v1/accounts'],
        ['GET', '/v1/admin/secrets'],
        ['GET', '/v1/accounts/acct_00000000000000000000/hooks/hk_00000000000000000000/nope'],
      ] as const) {
        const res = await api.call(method, path, undefined, { key: null });
        expect([path, res.statusCode]).toEqual([path, 401]);
        expect(res.json().error.code).toBe('UNAUTHORIZED');
      }
      expect((await api.call('GET', '/nope', undefined, { key: null })).statusCode).toBe(404);
    });

    it('answers a path that cannot be decoded with 400 in the catalogue shape, naming the path', async () => {
      const res = await api.call('GET', '/v1/accounts/acct_00000000000000000000/hooks/%E0%A4%A');
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request: path',
          details: [{ field: 'path', message: expect.stringContaining('percent-encoded') }],
        },
      });
    });

    it('answers an unexpected failure with 500, the request id and no internals', async () => {
      const acct = await api.createAccount();
      // Data of the wrong type under the account's key makes Redis refuse the read (WRONGTYPE).
      await api.ctx.redis.del(api.keys.accountRecord(acct));
      await api.ctx.redis.set(api.keys.accountRecord(acct), 'corrupt');
      const res = await api.call('GET', `/v1/accounts/${acct}/hooks`);
      expect(res.statusCode).toBe(500);
      const requestId = res.headers['x-request-id'] as string;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json()).toEqual({
        error: { code: 'INTERNAL', message: expect.stringContaining(requestId) },
      });
      expect(res.body).not.toMatch(/WRONGTYPE|stack|at .*\.ts/);
    });
  });
});

describe('when Redis is unreachable', () => {
  const api = useApi();

  it('answers 503 REDIS_UNAVAILABLE on Redis-backed routes and /readyz, while /healthz stays 200', async () => {
    const dead = createFailFastRedis('redis://127.0.0.1:1', {
      retryStrategy: () => 1000,
      // Its socket is already gone; ioredis would otherwise keep a 2 s timer to destroy it.
      disconnectTimeout: 1,
    });
    dead.on('error', () => undefined);
    const config = configFor(api.ctx.prefix);
    const deps = createApiDeps(
      config,
      dead,
      createLogger('silent', 'api-test'),
      createMetrics(),
      api.history.client,
    );
    api.ctx.onCleanup(() => dead.disconnect());
    const call = await serveApi(api.ctx, deps);

    expect((await call('GET', '/healthz')).statusCode).toBe(200);
    // /readyz names what is not ready, and why.
    expect((await call('GET', '/readyz')).json()).toEqual({
      error: {
        code: 'REDIS_UNAVAILABLE',
        message: 'Not ready: Redis does not answer',
        details: [{ field: 'redis', message: expect.stringMatching(/^not connected \(\w+\)$/) }],
      },
    });
    const acct = 'acct_00000000000000000000';
    for (const res of [
      await call('GET', '/readyz'),
      await call('POST', '/v1/accounts', { name: 'Acme' }),
      await call('GET', `/v1/accounts/${acct}/hooks`),
      await call('POST', `/v1/accounts/${acct}/events`, { type: 'call_created', data: callCreated() }),
    ]) {
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('REDIS_UNAVAILABLE');
    }
  });
});

describe('when PostgreSQL is unreachable', () => {
  const api = useApi();

  it('answers 503 HISTORY_UNAVAILABLE on the history routes, not a Redis outage; the rest still works', async () => {
    const dead = pgClient({ url: 'postgres://hookline@127.0.0.1:1/hookline', schema: 'hookline' });
    api.ctx.onCleanup(() => dead.close());
    const deps = createApiDeps(
      configFor(api.ctx.prefix),
      api.ctx.redis,
      createLogger('silent', 'api-test'),
      createMetrics(),
      dead,
    );
    const call = await serveApi(api.ctx, deps);
    const acct = (await call('POST', '/v1/accounts', { name: 'Acme' })).json().id as string;
    const hook = (
      await call('POST', `/v1/accounts/${acct}/hooks`, { url: 'https://x.example.com/h', format: 'json' })
    ).json().id as string;

    for (const path of [
      `/v1/accounts/${acct}/deliveries?call_id=c1`,
      `/v1/accounts/${acct}/hooks/${hook}/deliveries`,
      `/v1/accounts/${acct}/hooks/${hook}/health`,
    ]) {
      const res = await call('GET', path);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: {
          code: 'HISTORY_UNAVAILABLE',
          message: 'The delivery history cannot be read right now; retry shortly',
        },
      });
    }
    // The audit log is kept in the same database; its refusal names it, not the delivery history.
    const audit = await call('GET', `/v1/accounts/${acct}/audit`);
    expect(audit.statusCode).toBe(503);
    expect(audit.headers['retry-after']).toBe('5');
    expect(audit.json()).toEqual({
      error: {
        code: 'HISTORY_UNAVAILABLE',
        message: 'The audit log cannot be read right now; retry shortly',
      },
    });
    expect((await call('GET', `/v1/accounts/${acct}/hooks/${hook}`)).statusCode).toBe(200);
  });
});
