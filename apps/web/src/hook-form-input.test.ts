import type { HookView } from '@hookline/core';
import { parseCreateForm, parseUpdateForm, valuesOf } from './hook-form-input';

const stored = (auth: HookView['auth']): HookView => ({
  id: 'hk_0123456789abcdef0123',
  account_id: 'acct_0123456789abcdef0123',
  url: 'https://crm.example.com/hook',
  format: 'json',
  auth,
  state: 'active',
  health: 'healthy',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  insecure_credentials: false,
  events: 'all',
  signing: false,
});

describe('hook form', () => {
  it('turns a create form into the domain input, trimming and dropping an empty description', () => {
    const result = parseCreateForm({
      url: ' https://crm.example.com/hook ',
      format: 'form',
      description: '',
      auth_scheme: 'basic',
      basic_username: 'pbx',
      basic_password: 'pw with spaces',
      bearer_token: 'ignored because the scheme is basic',
    });
    expect(result).toMatchObject({
      ok: true,
      input: {
        url: 'https://crm.example.com/hook',
        format: 'form',
        auth: { scheme: 'basic', username: 'pbx', password: 'pw with spaces' },
      },
    });
    expect(result.ok && 'description' in result.input).toBe(false);
  });

  it('names each bad field in a sentence next to it, and never echoes a secret', () => {
    const result = parseCreateForm({
      url: 'not a url',
      format: 'json',
      auth_scheme: 'bearer',
      bearer_token: '',
    });
    expect(result).toEqual({
      ok: false,
      values: {
        url: 'not a url',
        format: 'json',
        description: '',
        scheme: 'bearer',
        username: '',
        noPassword: false,
        oauth2: { token_url: '', client_id: '', scope: '', audience: '', client_auth: 'basic' },
        events: 'all',
        signing: false,
        filter: [],
        headers: '',
      },
      errors: {
        url: 'URL must be an absolute http:// or https:// URL.',
        bearer_token: 'Token must not be empty.',
      },
    });
    const basic = parseCreateForm({
      url: 'https://x.example/',
      auth_scheme: 'basic',
      basic_username: 'a:b',
      basic_password: 'p',
    });
    expect(basic.ok || basic.errors).toEqual({ basic_username: 'Username must not contain ":" (RFC 7617).' });
  });

  it('keeps stored credentials when the secret is left empty under the same scheme', () => {
    const bearer = stored({ scheme: 'bearer', token_last4: 'abcd' });
    const result = parseUpdateForm(
      { url: bearer.url, format: 'json', auth_scheme: 'bearer', bearer_token: '' },
      bearer,
    );
    expect(result).toMatchObject({ ok: true, input: { url: bearer.url, format: 'json', description: null } });
    expect(result.ok && 'auth' in result.input).toBe(false);

    const replaced = parseUpdateForm(
      { url: bearer.url, auth_scheme: 'bearer', bearer_token: 'new-token-1234' },
      bearer,
    );
    expect(replaced).toMatchObject({
      ok: true,
      input: { auth: { scheme: 'bearer', token: 'new-token-1234' } },
    });
  });

  it('takes an empty Basic password only with No password ticked, and never both', () => {
    const base = {
      url: 'https://crm.example.com/hook',
      format: 'json',
      auth_scheme: 'basic',
      basic_username: 'key_1',
    };
    expect(parseCreateForm({ ...base, basic_password: '' })).toMatchObject({
      ok: false,
      errors: { basic_password: 'Password must not be empty: type one, or tick No password.' },
    });
    expect(parseCreateForm({ ...base, basic_password: '', basic_no_password: '1' })).toMatchObject({
      ok: true,
      input: { auth: { scheme: 'basic', username: 'key_1', password: '' } },
    });
    expect(parseCreateForm({ ...base, basic_password: 'typed-pass', basic_no_password: '1' })).toMatchObject({
      ok: false,
      values: { noPassword: true },
      errors: { basic_password: 'Type a password or tick No password, not both.' },
    });
    const basic = stored({ scheme: 'basic', username: 'pbx', password_last4: 'w0rd' });
    expect(
      parseUpdateForm(
        { url: basic.url, auth_scheme: 'basic', basic_password: '', basic_no_password: '1' },
        basic,
      ),
    ).toMatchObject({ ok: true, input: { auth: { scheme: 'basic', username: 'pbx', password: '' } } });
    expect(
      parseUpdateForm(
        { url: basic.url, auth_scheme: 'basic', basic_password: 'x-1', basic_no_password: '1' },
        basic,
      ),
    ).toMatchObject({
      ok: false,
      errors: { basic_password: 'Type a password or tick No password, not both.' },
    });
  });

  it('asks for the password again when a Basic username changes, and for a secret when the scheme changes', () => {
    const basic = stored({ scheme: 'basic', username: 'pbx', password_last4: 'w0rd' });
    expect(
      parseUpdateForm(
        { url: basic.url, auth_scheme: 'basic', basic_username: 'other', basic_password: '' },
        basic,
      ),
    ).toMatchObject({
      ok: false,
      errors: { basic_password: 'Enter the password again to change the username.' },
    });
    expect(parseUpdateForm({ url: basic.url, auth_scheme: 'bearer', bearer_token: '' }, basic)).toMatchObject(
      {
        ok: false,
        errors: { bearer_token: 'Token must not be empty.' },
      },
    );
    expect(parseUpdateForm({ url: basic.url, auth_scheme: 'none' }, basic)).toMatchObject({
      ok: true,
      input: { auth: { scheme: 'none' } },
    });
  });

  it('never fills in a stored Basic username; left empty it stays, and a new password alone keeps it', () => {
    const basic = stored({ scheme: 'basic', username: 'pbx-user', password_last4: 'w0rd' });
    expect(valuesOf(basic).username).toBe('');
    const kept = parseUpdateForm(
      { url: basic.url, auth_scheme: 'basic', basic_username: '', basic_password: '' },
      basic,
    );
    expect(kept.ok && 'auth' in kept.input).toBe(false);
    // The same username typed again changes nothing either.
    const same = parseUpdateForm(
      { url: basic.url, auth_scheme: 'basic', basic_username: 'pbx-user', basic_password: '' },
      basic,
    );
    expect(same.ok && 'auth' in same.input).toBe(false);
    expect(
      parseUpdateForm(
        { url: basic.url, auth_scheme: 'basic', basic_username: '', basic_password: 'new-pass-1' },
        basic,
      ),
    ).toMatchObject({
      ok: true,
      input: { auth: { scheme: 'basic', username: 'pbx-user', password: 'new-pass-1' } },
    });
  });

  it('reads OAuth 2.0 client credentials with the API’s checks, errors beside the fields', () => {
    const form = {
      url: 'https://crm.example.com/hook',
      auth_scheme: 'oauth2',
      oauth2_token_url: ' https://auth.example.com/token ',
      oauth2_client_id: 'hookline-client',
      oauth2_client_secret: 'client-secret-1234',
      oauth2_scope: 'webhooks.write',
      oauth2_audience: '',
      oauth2_client_auth: 'post',
    };
    expect(parseCreateForm(form)).toMatchObject({
      ok: true,
      input: {
        auth: {
          scheme: 'oauth2',
          token_url: 'https://auth.example.com/token',
          client_id: 'hookline-client',
          client_secret: 'client-secret-1234',
          scope: 'webhooks.write',
          client_auth: 'post',
        },
      },
    });
    const bad = parseCreateForm({
      ...form,
      oauth2_token_url: 'ftp://auth.example.com/token',
      oauth2_client_secret: '',
    });
    expect(bad.ok || bad.errors).toEqual({
      oauth2_token_url: 'Token URL must be an absolute http:// or https:// URL without user-info.',
      oauth2_client_secret: 'Client secret must not be empty.',
    });
    expect(JSON.stringify(bad.values)).not.toContain('client-secret-1234');
  });

  it('keeps a stored OAuth 2.0 secret when left empty, and asks for it again to change the settings', () => {
    const oauth = stored({
      scheme: 'oauth2',
      token_url: 'https://auth.example.com/token',
      client_id: 'cid',
      client_secret_last4: '1234',
      scope: 'a',
      client_auth: 'basic',
    });
    const shown = valuesOf(oauth);
    expect(shown.oauth2).toEqual({
      token_url: 'https://auth.example.com/token',
      client_id: 'cid',
      scope: 'a',
      audience: '',
      client_auth: 'basic',
    });
    const base = {
      url: oauth.url,
      auth_scheme: 'oauth2',
      oauth2_token_url: 'https://auth.example.com/token',
      oauth2_client_id: 'cid',
      oauth2_scope: 'a',
      oauth2_client_auth: 'basic',
      oauth2_client_secret: '',
    };
    const kept = parseUpdateForm(base, oauth);
    expect(kept.ok && 'auth' in kept.input).toBe(false);
    // A form that chose no scheme leaves the credentials as they are.
    const noScheme = parseUpdateForm({ url: oauth.url }, oauth);
    expect(noScheme.ok && 'auth' in noScheme.input).toBe(false);
    expect(parseUpdateForm({ ...base, oauth2_scope: 'b' }, oauth)).toMatchObject({
      ok: false,
      errors: { oauth2_client_secret: 'Enter the client secret again to change the OAuth 2.0 settings.' },
    });
    expect(
      parseUpdateForm({ ...base, oauth2_scope: 'b', oauth2_client_secret: 'new-secret-99' }, oauth),
    ).toMatchObject({
      ok: true,
      input: { auth: { scheme: 'oauth2', scope: 'b', client_secret: 'new-secret-99', client_auth: 'basic' } },
    });
  });

  it('reads the event kinds and signing only from a form that showed them', () => {
    const hook = stored({ scheme: 'none' });
    const base = { url: hook.url, format: 'json', auth_scheme: 'none' };
    expect(parseUpdateForm(base, hook)).toMatchObject({ ok: true });
    expect((parseUpdateForm(base, hook) as { input: object }).input).not.toHaveProperty('events');
    const shown = { ...base, events_signing_shown: '1' };
    expect(parseUpdateForm(shown, hook)).toMatchObject({
      ok: false,
      errors: { events: 'Choose at least one kind of event, or every kind.' },
    });
    expect(parseUpdateForm({ ...shown, events: 'call_created', signing: '1' }, hook)).toMatchObject({
      ok: true,
      input: { events: ['call_created'], signing: true },
    });
    expect(parseCreateForm({ ...shown, events_all: '1', events: ['call_created'] })).toMatchObject({
      ok: true,
      input: { events: 'all' },
    });
  });
  // A new hook's plain fields, with the filter editor shown and the given rows (field, operator, value).
  const withRows = (
    rows: readonly (readonly [string, string, string])[],
    more: Record<string, string> = {},
  ) => ({
    url: 'https://crm.example.com/hook',
    format: 'json',
    auth_scheme: 'none',
    filter_shown: '1',
    ...Object.fromEntries(
      rows.flatMap(([field, op, value], i) => [
        [`filter_field_${i}`, field],
        [`filter_op_${i}`, op],
        [`filter_value_${i}`, value],
      ]),
    ),
    ...more,
  });

  it('names a headers line and filter rows it cannot read beside every other bad field, not instead of them', () => {
    const form = withRows(
      [
        ['from', 'is', 'a'],
        ['from', 'is', 'b'],
      ],
      { url: 'ftp://files.example.com', headers_shown: '1', headers: 'bad' },
    );
    expect(parseCreateForm(form)).toMatchObject({
      ok: false,
      errors: {
        url: expect.stringMatching(/^URL /),
        headers: 'Headers: line 1 is not "Name: value".',
        // Two rows on one field: one would be lost without a word.
        filter:
          'Filter on “from”: it is in two rows, and a field takes one condition (for several values, use “is one of”).',
      },
    });
  });

  // The select offers five operators; a hand-made request with another must not be saved as "is" (a
  // "starts with +44" silently becoming "is +33").
  it('refuses a row whose operator the form does not offer, naming the field, the operator and the choices', () => {
    expect(parseCreateForm(withRows([['to', 'regex', '+33']]))).toMatchObject({
      ok: false,
      errors: {
        filter:
          'Filter on “to”: “regex” is not a condition it can take; choose one of “is”, “is one of”, “starts with”, “is present”, “is absent”.',
      },
    });
  });

  // Names an empty object has already (toString, constructor) are header names like any other.
  it('takes headers named toString and constructor, and refuses __proto__ by name', () => {
    expect(
      parseCreateForm(withRows([], { headers_shown: '1', headers: 'toString: 1\nconstructor: x' })),
    ).toMatchObject({ ok: true, input: { headers: { toString: '1', constructor: 'x' } } });
    expect(parseCreateForm(withRows([], { headers_shown: '1', headers: '__proto__: x' }))).toMatchObject({
      ok: false,
      errors: { headers: 'Headers: __proto__ cannot be a header name here.' },
    });
  });

  it('refuses an “is one of” whose quote is left open, and names every reserved header', () => {
    const form = withRows([['from', 'in', '"abc, d']], {
      headers_shown: '1',
      headers: 'Authorization: x\nsvix-id: y',
    });
    expect(parseCreateForm(form)).toMatchObject({
      ok: false,
      errors: {
        filter:
          'Filter on “from” (“is one of”): a quote is not closed; a value holding a comma goes in quotes, as in "Smith, John", Doe.',
        headers:
          "Headers: Authorization cannot be given here: set credentials as the hook's authentication. svix-id is read as the delivery's signature by receivers' svix library and cannot be given.",
      },
    });
    // Closed, the same value and another are two texts: taken.
    expect(parseCreateForm(withRows([['from', 'in', '"abc, d", e']]))).toMatchObject({
      ok: true,
      input: { filter: { from: { $in: ['abc, d', 'e'] } } },
    });
  });
});
