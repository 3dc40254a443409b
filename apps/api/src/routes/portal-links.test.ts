import { PortalLinks } from '@hookline/store';
import { useApi } from '../test-support/api-harness';

// POST /v1/accounts/{acct}/portal-links (product.md §16): a single-use, short-lived sign-in URL; Redis keeps
// only the token's hash.
describe('POST …/portal-links', () => {
  const api = useApi();
  const linksOf = (acct: string) => `/v1/accounts/${acct}/portal-links`;

  it('answers 201 with the URL and its expiry (300 s by default), stores no token, and is audited', async () => {
    const acct = await api.createAccount();
    const started = Date.now();
    const res = await api.call('POST', linksOf(acct), { return_url: 'https://operator.test/back' });
    expect(res.statusCode).toBe(201);
    const { url, expires_at } = res.json() as { url: string; expires_at: string };
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${api.port}/portal/[A-Za-z0-9_-]{43}$`));
    const ttl = Date.parse(expires_at) - started;
    expect(ttl).toBeGreaterThan(299_000);
    expect(ttl).toBeLessThan(302_000);

    const token = url.split('/').pop()!;
    const keys = await api.ctx.redis.keys(`${api.ctx.prefix}:portal-link:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(token);
    expect(JSON.stringify(await api.ctx.redis.hgetall(keys[0]!))).not.toContain(token);

    const [entry] = (await api.call('GET', `/v1/accounts/${acct}/audit`)).json().data;
    expect(entry).toMatchObject({
      action: 'portal_link.created',
      actor: { kind: 'operator_key' },
      detail: { read_only: false, expires_at, link: expect.stringMatching(/^sha256:[0-9a-f]{16}$/) },
    });
    expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('takes ttl_s from 30 to 3600 and read_only', async () => {
    const acct = await api.createAccount();
    const res = await api.call('POST', linksOf(acct), { ttl_s: 30, read_only: true });
    expect(res.statusCode).toBe(201);
    const ttl = Date.parse(res.json().expires_at) - Date.now();
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(ttl).toBeGreaterThan(25_000);
    expect((await api.call('POST', linksOf(acct), { ttl_s: 3600 })).statusCode).toBe(201);
  });

  it('takes no body at all, with or without a JSON content-type: the defaults (300 s, not read-only)', async () => {
    const acct = await api.createAccount();
    for (const raw of [undefined, '']) {
      const started = Date.now();
      const res = await api.call('POST', linksOf(acct), undefined, raw === undefined ? {} : { raw });
      expect(res.statusCode).toBe(201);
      expect(res.body).toMatch(
        new RegExp(
          `^\\{"url":"http://127\\.0\\.0\\.1:${api.port}/portal/[A-Za-z0-9_-]{43}","expires_at":"[0-9T:.-]+Z"\\}$`,
        ),
      );
      const ttl = Date.parse(res.json().expires_at) - started;
      expect(ttl).toBeGreaterThan(299_000);
      expect(ttl).toBeLessThan(302_000);
    }
    const { data } = (await api.call('GET', `/v1/accounts/${acct}/audit`)).json();
    expect(data.map((e: { detail: { read_only?: boolean } }) => e.detail.read_only)).toEqual([
      false,
      false,
      undefined,
    ]);
  });

  it('keeps return_url in its parsed form: punycode host, percent-encoded path and query', async () => {
    const acct = await api.createAccount();
    for (const [given, kept] of [
      ['https://bücher.example/konto?tab=hooks', 'https://xn--bcher-kva.example/konto?tab=hooks'],
      ['https://x.example/€/preise?q=ü#ä', 'https://x.example/%E2%82%AC/preise?q=%C3%BC#%C3%A4'],
      ['HTTPS://X.Example:443/a b', 'https://x.example/a%20b'],
    ]) {
      const res = await api.call('POST', linksOf(acct), { return_url: given });
      expect(res.statusCode).toBe(201);
      const token = (res.json().url as string).split('/').pop()!;
      expect(await new PortalLinks(api.ctx.redis, api.keys).use(token)).toMatchObject({
        kind: 'ok',
        returnUrl: kept,
      });
    }
  });

  it('refuses control characters in return_url (which the URL parser would silently drop), making nothing', async () => {
    const acct = await api.createAccount();
    const before = await api.keyCount();
    for (const [returnUrl, message] of [
      ['https://x.example/\r\nSet-Cookie: a=b', 'must not contain control characters'],
      ['https://x.example/\nb', 'must not contain control characters'],
      ['https://x.example/\rb', 'must not contain control characters'],
      ['https://x.example/\tb', 'must not contain control characters'],
      ['\thttps://x.example/', 'must not contain control characters'],
      ['https://x.example/\u0000', 'must not contain control characters'],
      ['https://x.example/\u007f', 'must not contain control characters'],
      ['https://x.example/\ud800', 'must be well-formed Unicode (no lone surrogates)'],
    ]) {
      const res = await api.call('POST', linksOf(acct), { return_url: returnUrl });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(
        '{"error":{"code":"VALIDATION_FAILED","message":"Invalid request: return_url",' +
          `"details":[{"field":"return_url","message":"${message}"}]}}`,
      );
    }
    expect(await api.keyCount()).toBe(before);
  });

  it('names every bad field, and makes nothing', async () => {
    const acct = await api.createAccount();
    const before = await api.keyCount();
    for (const [body, field, message] of [
      [{ ttl_s: 29 }, 'ttl_s', 'must be a whole number of seconds from 30 to 3600'],
      [{ ttl_s: 3601 }, 'ttl_s', 'must be a whole number of seconds from 30 to 3600'],
      [{ ttl_s: 60.5 }, 'ttl_s', 'must be a whole number of seconds from 30 to 3600'],
      [{ read_only: 'yes' }, 'read_only', 'must be true or false'],
      [{ return_url: 'javascript:alert(1)' }, 'return_url', 'must be an absolute http:// or https:// URL'],
      [{ return_url: '/relative' }, 'return_url', 'must be an absolute http:// or https:// URL'],
      // Credentials in the address would be sent back in every Location header and href, as hook URLs' are not.
      [
        { return_url: 'https://ops:s3cret@portal.example.com/' },
        'return_url',
        'must not contain a user name or password (user-info)',
      ],
    ] as const) {
      const res = await api.call('POST', linksOf(acct), body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field, message }]);
    }
    expect(await api.keyCount()).toBe(before);
    // Only the account's creation: no refused link is recorded.
    const { data } = (await api.call('GET', `/v1/accounts/${acct}/audit`)).json();
    expect(data.map((e: { action: string }) => e.action)).toEqual(['account.created']);
  });
});
