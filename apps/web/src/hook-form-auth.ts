import { AUTH_SCHEMES, type AuthScheme, type HookView } from '@hookline/core';
import type { FieldErrors } from './hook-form-errors';

// The hook form's credentials: what the form shows back (never a secret, product.md §4) and what it asks of
// the hook's `auth`. Secrets are write-only, so an edit form starts with them empty: left empty, the stored
// ones stay; a change that needs them back says so beside the field.

type FormBody = Readonly<Record<string, unknown>>;
const text = (body: FormBody, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** The OAuth 2.0 settings as shown and typed: none of them is the secret. */
export interface OAuth2Values {
  readonly token_url: string;
  readonly client_id: string;
  readonly scope: string;
  readonly audience: string;
  readonly client_auth: 'basic' | 'post';
}

export interface AuthValues {
  readonly scheme: AuthScheme;
  /** A Basic username as typed: never filled in from the stored one (§4: scheme and last 4 at most). */
  readonly username: string;
  /** "No password" ticked: Basic with an empty password (a receiver that reads the username alone). */
  readonly noPassword: boolean;
  readonly oauth2: OAuth2Values;
}

export const EMPTY_OAUTH2: OAuth2Values = {
  token_url: '',
  client_id: '',
  scope: '',
  audience: '',
  client_auth: 'basic',
};

export function authValuesOf(auth: HookView['auth']): AuthValues {
  return {
    scheme: auth.scheme,
    username: '',
    noPassword: false,
    oauth2:
      auth.scheme === 'oauth2'
        ? {
            token_url: auth.token_url,
            client_id: auth.client_id,
            scope: auth.scope ?? '',
            audience: auth.audience ?? '',
            client_auth: auth.client_auth,
          }
        : EMPTY_OAUTH2,
  };
}

export function readAuthValues(body: FormBody): AuthValues {
  const scheme = text(body, 'auth_scheme');
  return {
    scheme: (AUTH_SCHEMES as readonly string[]).includes(scheme) ? (scheme as AuthScheme) : 'none',
    username: text(body, 'basic_username'),
    noPassword: text(body, 'basic_no_password') !== '',
    oauth2: {
      token_url: text(body, 'oauth2_token_url').trim(),
      client_id: text(body, 'oauth2_client_id').trim(),
      scope: text(body, 'oauth2_scope').trim(),
      audience: text(body, 'oauth2_audience').trim(),
      client_auth: text(body, 'oauth2_client_auth') === 'post' ? 'post' : 'basic',
    },
  };
}

/** The `auth` the form asks for, secrets as typed (the schema then checks it as the API does). */
export function authFrom(body: FormBody, values: AuthValues): Record<string, unknown> {
  switch (values.scheme) {
    case 'none':
      return { scheme: 'none' };
    case 'bearer':
      return { scheme: 'bearer', token: text(body, 'bearer_token').trim() };
    case 'basic':
      return {
        scheme: 'basic',
        username: values.username,
        password: values.noPassword ? '' : text(body, 'basic_password'),
      };
    case 'oauth2': {
      const { token_url, client_id, scope, audience, client_auth } = values.oauth2;
      return {
        scheme: 'oauth2',
        token_url,
        client_id,
        client_secret: text(body, 'oauth2_client_secret'),
        ...(scope ? { scope } : {}),
        ...(audience ? { audience } : {}),
        client_auth,
      };
    }
  }
}

/**
 * A blank password field is a password not typed. The API takes an empty Basic password (RFC 7617), but a form
 * cannot tell one from the other: the site asks for "No password" to be ticked instead, and a password typed
 * with it ticked is a contradiction, not a guess to make.
 */
export function untypedPassword(
  auth: Record<string, unknown> | undefined,
  values: AuthValues,
  body: FormBody,
): FieldErrors {
  if (auth?.scheme !== 'basic') return {};
  if (values.noPassword)
    return text(body, 'basic_password') !== ''
      ? { basic_password: 'Type a password or tick No password, not both.' }
      : {};
  return auth.password === ''
    ? { basic_password: 'Password must not be empty: type one, or tick No password.' }
    : {};
}

const sameOAuth2 = (a: OAuth2Values, b: OAuth2Values) =>
  (Object.keys(a) as (keyof OAuth2Values)[]).every((k) => a[k] === b[k]);

/**
 * What an edit form asks of the stored credentials: keep them, replace them, or a field error. Under the same
 * scheme, an empty secret keeps what is stored; a Basic username left empty keeps the stored one (a new
 * password alone replaces the password); a username or OAuth 2.0 setting changed with no secret typed needs
 * the secret again, because the site cannot read the stored one back.
 */
export function authChange(
  body: FormBody,
  values: AuthValues,
  current: HookView['auth'],
): { keep: true } | { keep: false; auth: Record<string, unknown> } | { errors: FieldErrors } {
  // A form that chose no scheme (a page from before OAuth 2.0 was on the form showed none for such a hook)
  // asks nothing of the credentials.
  if (text(body, 'auth_scheme') === '') return { keep: true };
  const auth = authFrom(body, values);
  if (current.scheme !== values.scheme) return { keep: false, auth };
  switch (current.scheme) {
    case 'none':
      return { keep: true };
    case 'bearer':
      return auth.token === '' ? { keep: true } : { keep: false, auth };
    case 'basic': {
      const username = values.username === '' ? current.username : values.username;
      if (auth.password !== '' || values.noPassword) return { keep: false, auth: { ...auth, username } };
      if (username === current.username) return { keep: true };
      return { errors: { basic_password: 'Enter the password again to change the username.' } };
    }
    case 'oauth2': {
      if (auth.client_secret !== '') return { keep: false, auth };
      if (sameOAuth2(values.oauth2, authValuesOf(current).oauth2)) return { keep: true };
      return {
        errors: { oauth2_client_secret: 'Enter the client secret again to change the OAuth 2.0 settings.' },
      };
    }
  }
}
