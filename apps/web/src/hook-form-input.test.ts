import type { HookView } from '@hookline/core';
import { parseCreateForm, parseUpdateForm } from './hook-form-input';

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
});
