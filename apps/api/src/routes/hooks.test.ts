import { expectAbsent, useApi } from '../test-support/api-harness';

const TOKEN = 'tok_live_4f9a1c2b3d4e5f60718293a';
const PASSWORD = 'pa55-w0rd-very-secret';

describe('hooks', () => {
  const api = useApi();
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;

  describe('happy paths', () => {
    it('creates a hook with bearer auth and shows the token masked', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), {
        url: 'https://www.example.com/webhook',
        format: 'json',
        auth: { scheme: 'bearer', token: TOKEN },
        description: 'PBX events',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        id: expect.stringMatching(/^hk_/),
        account_id: acct,
        url: 'https://www.example.com/webhook',
        format: 'json',
        auth: { scheme: 'bearer', token_last4: TOKEN.slice(-4) },
        description: 'PBX events',
        state: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        insecure_credentials: false,
        health: 'healthy',
        events: 'all',
        signing: false,
      });
      expectAbsent(res, TOKEN);
    });

    it('creates a form hook with basic auth on http:// and warns about it', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), {
        url: 'http://www.example.com/in',
        format: 'form',
        auth: { scheme: 'basic', username: 'jonas', password: PASSWORD },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        format: 'form',
        auth: { scheme: 'basic', username_last4: '', password_last4: PASSWORD.slice(-4) },
        insecure_credentials: true,
      });
      expectAbsent(res, PASSWORD);
      expectAbsent(res, 'jonas');
    });

    // RFC 7617 allows an empty password, and receivers use it: an API key as the user name, nothing after the ':'.
    it('creates a basic hook with an empty password, and changes one to it', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), {
        url: 'https://www.example.com/in',
        format: 'json',
        auth: { scheme: 'basic', username: 'sk_live_51HqLkz0Q', password: '' },
      });
      expect(res.statusCode).toBe(201);
      // The username is the credential here: shown as its last 4 characters, like any secret (§4).
      expect(res.json().auth).toEqual({ scheme: 'basic', username_last4: 'kz0Q', password_last4: '' });
      expectAbsent(res, 'sk_live_51HqLkz0Q');
      const got = await api.call('GET', `${hooksUrl(acct)}/${res.json().id}`);
      expect(got.json().auth).toEqual({ scheme: 'basic', username_last4: 'kz0Q', password_last4: '' });
      const listed = await api.call('GET', hooksUrl(acct));
      expectAbsent(listed, 'sk_live_51HqLkz0Q');
      const hook = await api.createHook(acct, { auth: { scheme: 'bearer', token: TOKEN } });
      const changed = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, {
        auth: { scheme: 'basic', username: 'key_only', password: '' },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().auth).toEqual({ scheme: 'basic', username_last4: '', password_last4: '' });
      expectAbsent(changed, 'key_only');
    });

    it('lists, gets, changes and deletes hooks, never showing credentials', async () => {
      const acct = await api.createAccount();
      const a = await api.createHook(acct, { auth: { scheme: 'bearer', token: TOKEN } });
      const b = await api.createHook(acct, { url: 'https://b.example.com/x', format: 'form' });

      const list = await api.call('GET', hooksUrl(acct));
      expect(list.statusCode).toBe(200);
      expect(
        list
          .json()
          .data.map((h: { id: string }) => h.id)
          .sort(),
      ).toEqual([a.id, b.id].sort());
      expectAbsent(list, TOKEN);

      const one = await api.call('GET', `${hooksUrl(acct)}/${a.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id: a.id, auth: { scheme: 'bearer' } });
      expectAbsent(one, TOKEN);

      const patched = await api.call('PATCH', `${hooksUrl(acct)}/${a.id}`, {
        url: 'https://changed.example.com/hook',
        auth: { scheme: 'basic', username: 'u', password: PASSWORD },
        description: null,
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({
        id: a.id,
        url: 'https://changed.example.com/hook',
        auth: { scheme: 'basic', username_last4: '' },
      });
      expect(patched.json()).not.toHaveProperty('description');
      expectAbsent(patched, PASSWORD);
      expect((await api.deps.store.hooks.target(a.id))?.auth).toEqual({
        scheme: 'basic',
        username: 'u',
        password: PASSWORD,
      });

      const deleted = await api.call('DELETE', `${hooksUrl(acct)}/${a.id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect((await api.call('GET', `${hooksUrl(acct)}/${a.id}`)).statusCode).toBe(404);
      expect((await api.call('DELETE', `${hooksUrl(acct)}/${a.id}`)).statusCode).toBe(404);
      expect((await api.call('GET', hooksUrl(acct))).json().data.map((h: { id: string }) => h.id)).toEqual([
        b.id,
      ]);
    });

    it('keeps the url in its parsed form, the one that is called', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, { url: 'HTTPS://Hooks.Example.COM:443/in/../webhook?a=1' });
      expect((hook as { url?: string }).url).toBe('https://hooks.example.com/webhook?a=1');
    });

    it('defaults auth to none', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      expect(hook).toMatchObject({ auth: { scheme: 'none' }, insecure_credentials: false });
    });
  });

  describe('errors', () => {
    it('names every bad field of a new hook and creates nothing', async () => {
      const acct = await api.createAccount();
      const before = await api.keyCount();
      const res = await api.call('POST', hooksUrl(acct), {
        url: 'ftp://user:pw@example.com/x',
        format: 'xml',
        auth: { scheme: 'bearer', token: 'has space' },
        description: 'd'.repeat(501),
        colour: 'blue',
      });
      expect(res.statusCode).toBe(400);
      const fields = res.json().error.details.map((d: { field: string }) => d.field);
      expect(new Set(fields)).toEqual(new Set(['url', 'format', 'auth.token', 'description', 'colour']));
      expect(await api.keyCount()).toBe(before);
      expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
    });

    it('says a missing format is required, as it says of a missing url', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), { auth: { scheme: 'none' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        { field: 'url', message: 'is required' },
        { field: 'format', message: 'is required' },
      ]);
      const wrong = await api.call('POST', hooksUrl(acct), { url: 'https://x.example.com', format: 'xml' });
      expect(wrong.json().error.details).toEqual([
        { field: 'format', message: 'format must be "json" or "form"' },
      ]);
    });

    const x = { url: 'https://x.example.com', format: 'json' };
    it.each([
      ['no url', { format: 'json' }, 'url'],
      ['no format', { url: 'https://x.example.com' }, 'format'],
      ['an unknown scheme', { ...x, auth: { scheme: 'digest' } }, 'auth.scheme'],
      [
        'a colon in the username',
        { ...x, auth: { scheme: 'basic', username: 'a:b', password: 'p' } },
        'auth.username',
      ],
      ['basic without password', { ...x, auth: { scheme: 'basic', username: 'a' } }, 'auth.password'],
      ['CR LF in the token', { ...x, auth: { scheme: 'bearer', token: 'a\r\nX-Evil: 1' } }, 'auth.token'],
      ['a url over 2048 characters', { ...x, url: `https://x.example.com/${'a'.repeat(2048)}` }, 'url'],
      ['a relative url', { ...x, url: '/webhook' }, 'url'],
      // The parser makes a host of the path: http://x/.
      ['no host in the url', { ...x, url: 'http:///x' }, 'url'],
      ['no slashes in the url', { ...x, url: 'https:x.example.com/in' }, 'url'],
      [
        'no host in the token_url',
        { ...x, auth: { scheme: 'oauth2', token_url: 'https:///t', client_id: 'c', client_secret: 's' } },
        'auth.token_url',
      ],
      // The URL parser takes port 0; nothing can be connected to there.
      ['port 0 in the url', { ...x, url: 'https://x.example.com:0/in' }, 'url'],
      [
        'port 0 in the token_url',
        {
          ...x,
          auth: {
            scheme: 'oauth2',
            token_url: 'https://x.example.com:0/t',
            client_id: 'c',
            client_secret: 's',
          },
        },
        'auth.token_url',
      ],
      // A '#' with nothing after it is still a fragment: stored and shown as given, never sent.
      ['an empty #fragment in the url', { ...x, url: 'https://x.example.com/hook#' }, 'url'],
      // Values the parser or the header would silently change: what is shown must be what is used.
      ['a tab in the url', { ...x, url: 'https://x.example.com/a\tb' }, 'url'],
      ['a line feed in the url', { ...x, url: 'https://x.example.com/a\nb' }, 'url'],
      ['spaces around the url', { ...x, url: ' https://x.example.com/in ' }, 'url'],
      ['a non-ASCII bearer token', { ...x, auth: { scheme: 'bearer', token: 'tok€n' } }, 'auth.token'],
      [
        'a lone surrogate in the token',
        { ...x, auth: { scheme: 'bearer', token: 'tok\ud800' } },
        'auth.token',
      ],
      [
        'a lone surrogate in a Basic password',
        { ...x, auth: { scheme: 'basic', username: 'u', password: 'pass\udc00word' } },
        'auth.password',
      ],
      ['NUL in the description', { ...x, description: 'CRM\u0000' }, 'description'],
    ])('rejects %s', async (_label, body, field) => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
    });

    const refusal = (field: string, message: string) =>
      `{"error":{"code":"VALIDATION_FAILED","message":"Invalid request: ${field}",` +
      `"details":[{"field":"${field}","message":"${message}"}]}}`;

    const number = 'Invalid input: expected string, received number';
    it.each([
      ['a url that is a number', { ...x, url: 5 }, 'url', number],
      [
        'a url that is an object',
        { ...x, url: { href: 'https://x.example.com' } },
        'url',
        'Invalid input: expected string, received object',
      ],
      [
        'a token_url that is a number',
        { ...x, auth: { scheme: 'oauth2', token_url: 5, client_id: 'c', client_secret: 's' } },
        'auth.token_url',
        number,
      ],
    ])('says %s is not a text (not that it is missing)', async (_label, body, field, message) => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), body);
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(refusal(field, message));
      expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
    });

    it('says a url cannot be removed when a change gives it as null, leaving the hook as it was', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const res = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, { url: null });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(refusal('url', 'url cannot be removed; give the new URL instead'));
      expect((await api.call('GET', `${hooksUrl(acct)}/${hook.id}`)).json().url).toBe(
        'https://hooks.example.com/webhook',
      );
    });

    it.each([
      ['null', null],
      ['a text', 'bearer'],
    ])(
      'says what auth must be when a change gives it as %s (not that its scheme is unknown)',
      async (_l, auth) => {
        const acct = await api.createAccount();
        const hook = await api.createHook(acct);
        const res = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, { auth });
        expect(res.statusCode).toBe(400);
        expect(res.body).toBe(
          refusal(
            'auth',
            'auth must be an object with a scheme: none (no credentials), bearer, basic or oauth2',
          ),
        );
      },
    );

    it('rejects an empty change and a bad field in a change, leaving the hook as it was', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const empty = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, {});
      expect(empty.statusCode).toBe(400);
      const bad = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, {
        url: 'https://ok.example.com',
        format: 'csv',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([{ field: 'format', message: expect.any(String) }]);
      expect((await api.call('GET', `${hooksUrl(acct)}/${hook.id}`)).json().url).toBe(
        'https://hooks.example.com/webhook',
      );
    });

    it('answers 404 for an unknown account, creating nothing', async () => {
      const before = await api.keyCount();
      for (const acct of ['acct_00000000000000000000', 'nonsense', 'acct_}{'])
        expect(
          (
            await api.call('POST', hooksUrl(encodeURIComponent(acct)), {
              url: 'https://x.example.com',
              format: 'json',
            })
          ).statusCode,
        ).toBe(404);
      expect((await api.call('GET', hooksUrl('acct_00000000000000000000'))).json().error.code).toBe(
        'NOT_FOUND',
      );
      expect(await api.keyCount()).toBe(before);
    });

    it('answers 404 for an unknown hook', async () => {
      const acct = await api.createAccount();
      for (const method of ['GET', 'PATCH', 'DELETE'])
        expect(
          (
            await api.call(
              method,
              `${hooksUrl(acct)}/hk_00000000000000000000`,
              method === 'PATCH' ? { format: 'form' } : undefined,
            )
          ).statusCode,
        ).toBe(404);
    });
  });

  describe('security', () => {
    it("never reaches another account's hook: 404, the hook unchanged", async () => {
      const mine = await api.createAccount('Mine');
      const theirs = await api.createAccount('Theirs');
      const hook = await api.createHook(theirs, { auth: { scheme: 'bearer', token: TOKEN } });
      const url = `${hooksUrl(mine)}/${hook.id}`;
      const answers = [
        await api.call('GET', url),
        await api.call('PATCH', url, { url: 'https://evil.example.com' }),
        await api.call('PATCH', url, { format: 'nonsense' }),
        await api.call('DELETE', url),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expectAbsent(res, TOKEN);
        expect(res.body).not.toContain(theirs);
      }
      expect(await api.deps.store.hooks.get(theirs, hook.id)).toMatchObject({
        url: 'https://hooks.example.com/webhook',
      });
      expect((await api.call('GET', hooksUrl(mine))).json().data).toEqual([]);
    });

    it('answers 401 to every hook call with a wrong or missing key, changing nothing', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const before = await api.keyCount();
      for (const key of ['wrong', null, `${'x'}${'y'.repeat(40)}`])
        for (const [method, url, body] of [
          ['POST', hooksUrl(acct), { url: 'https://x.example.com', format: 'json' }],
          ['GET', hooksUrl(acct), undefined],
          ['GET', `${hooksUrl(acct)}/${hook.id}`, undefined],
          ['PATCH', `${hooksUrl(acct)}/${hook.id}`, { format: 'form' }],
          ['DELETE', `${hooksUrl(acct)}/${hook.id}`, undefined],
        ] as const) {
          const res = await api.call(method, url, body, { key });
          expect(res.statusCode).toBe(401);
          expect(res.headers['www-authenticate']).toBe('Bearer realm="hookline"');
        }
      expect(await api.keyCount()).toBe(before);
      expect((await api.call('GET', `${hooksUrl(acct)}/${hook.id}`)).json().format).toBe('json');
    });
  });
});
