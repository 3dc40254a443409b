import { useApi } from '../test-support/api-harness';

// OAuth 2.0 client credentials over the API: the secret write-only, bad settings named.
describe('OAuth 2.0 hooks (API)', () => {
  const api = useApi();
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;
  const base = { url: 'https://crm.example.com/hook', format: 'json' };
  const oauth = {
    scheme: 'oauth2',
    token_url: 'https://auth.example.com/oauth/token',
    client_id: 'hookline',
    client_secret: 'cs_live_0123456789abcdef',
    audience: 'https://crm.example.com/',
  };

  it('answers with the settings and the secret masked to its last 4 characters', async () => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), { ...base, auth: oauth });
    expect(res.statusCode).toBe(201);
    expect(res.json().auth).toEqual({
      scheme: 'oauth2',
      token_url: 'https://auth.example.com/oauth/token',
      client_id: 'hookline',
      client_secret_last4: 'cdef',
      audience: 'https://crm.example.com/',
      client_auth: 'basic',
    });
    expect(res.body).not.toContain('cs_live_0123456789abcdef');
  });

  it.each([
    ['no token_url', { ...oauth, token_url: undefined }, 'auth.token_url'],
    ['a token_url that is not http(s)', { ...oauth, token_url: 'ftp://auth.example.com/' }, 'auth.token_url'],
    ['an empty secret', { ...oauth, client_secret: '' }, 'auth.client_secret'],
    ['an unknown client_auth', { ...oauth, client_auth: 'jwt' }, 'auth.client_auth'],
    // RFC 6749 §3.2: the token endpoint's URI must not include a fragment.
    [
      'a token_url with a #fragment',
      { ...oauth, token_url: 'https://auth.example.com/token#x' },
      'auth.token_url',
    ],
    [
      'a token_url with an empty #fragment',
      { ...oauth, token_url: 'https://auth.example.com/token#' },
      'auth.token_url',
    ],
    // RFC 6749 §3.3: scope tokens are visible ASCII without " and \, separated by single spaces.
    ['a scope with a double quote', { ...oauth, scope: 'events:"write"' }, 'auth.scope'],
    ['a scope with two spaces in a row', { ...oauth, scope: 'a  b' }, 'auth.scope'],
  ])('refuses %s, naming the field', async (_name, auth, field) => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), { ...base, auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  // The client secret travels to token_url, not to the hook's URL: a plain-http token endpoint reads it on the way.
  it.each([
    [
      'an https hook with a plain-http token_url',
      'https://crm.example.com/hook',
      'http://auth.example.com/token',
      true,
    ],
    ['a plain-http hook with an https token_url', 'http://crm.example.com/hook', oauth.token_url, true],
    ['https for both', 'https://crm.example.com/hook', oauth.token_url, false],
  ])('warns about credentials over plain http for %s', async (_name, url, tokenUrl, insecure) => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), {
      ...base,
      url,
      auth: { ...oauth, token_url: tokenUrl },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().insecure_credentials).toBe(insecure);
  });
});
