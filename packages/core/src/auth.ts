// Hook authentication as the customer configured it. Secrets are only ever held in this shape in memory;
// at rest they are encrypted (see @hookline/store) and in answers they are masked.
export type HookAuth =
  | { readonly scheme: 'none' }
  | { readonly scheme: 'bearer'; readonly token: string }
  | { readonly scheme: 'basic'; readonly username: string; readonly password: string }
  | OAuth2Auth;

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4): hookline gets a token from `token_url` and sends it as Bearer.
 * `client_auth`: how the client authenticates to the token endpoint, `basic` (client_secret_basic, the
 * default) or `post` (client_secret_post: id and secret in the form body).
 */
export interface OAuth2Auth {
  readonly scheme: 'oauth2';
  readonly token_url: string;
  readonly client_id: string;
  readonly client_secret: string;
  readonly scope?: string;
  readonly audience?: string;
  readonly client_auth?: 'basic' | 'post';
}

export type AuthScheme = HookAuth['scheme'];
export const AUTH_SCHEMES = ['none', 'bearer', 'basic', 'oauth2'] as const;

/**
 * RFC 7617 for Basic: base64 of the UTF-8 bytes of "username:password". For OAuth 2.0, the token the caller
 * got for the attempt (`oauthToken`); without one, no header (the caller never sends such a request).
 */
export function authorizationHeader(auth: HookAuth, oauthToken?: string): string | undefined {
  switch (auth.scheme) {
    case 'oauth2':
      return oauthToken === undefined ? undefined : `Bearer ${oauthToken}`;
    case 'none':
      return undefined;
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'basic':
      return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }
}

/**
 * The credentials as kept beside the sealed ones, for the API and the pages: the scheme and the last 4 characters
 * at most, except a Basic username, kept whole so that the website can tell whether a username typed again is
 * the stored one. Nothing shows it: the API answers `shownAuth` of this, and pages never print it.
 */
export type MaskedAuth =
  | { readonly scheme: 'none' }
  | { readonly scheme: 'bearer'; readonly token_last4: string }
  | { readonly scheme: 'basic'; readonly username: string; readonly password_last4: string }
  | {
      readonly scheme: 'oauth2';
      readonly token_url: string;
      readonly client_id: string;
      readonly client_secret_last4: string;
      readonly scope?: string;
      readonly audience?: string;
      readonly client_auth: 'basic' | 'post';
    };

const last4 = (secret: string) => (secret.length > 8 ? secret.slice(-4) : '');

/** What the API shows of the credentials: the scheme and the last 4 characters at most (§4). */
export type ShownAuth =
  | Exclude<MaskedAuth, { readonly scheme: 'basic' }>
  | { readonly scheme: 'basic'; readonly username_last4: string; readonly password_last4: string };

/**
 * A Basic username is a credential too: a receiver may read an API key as the username (RFC 7617 allows an
 * empty password), so it is cut like a secret.
 */
export function shownAuth(auth: MaskedAuth): ShownAuth {
  if (auth.scheme !== 'basic') return auth;
  return { scheme: 'basic', username_last4: last4(auth.username), password_last4: auth.password_last4 };
}

export function maskAuth(auth: HookAuth): MaskedAuth {
  switch (auth.scheme) {
    case 'oauth2':
      return {
        scheme: 'oauth2',
        token_url: auth.token_url,
        client_id: auth.client_id,
        client_secret_last4: last4(auth.client_secret),
        ...(auth.scope !== undefined ? { scope: auth.scope } : {}),
        ...(auth.audience !== undefined ? { audience: auth.audience } : {}),
        client_auth: auth.client_auth ?? 'basic',
      };
    case 'none':
      return { scheme: 'none' };
    case 'bearer':
      return { scheme: 'bearer', token_last4: last4(auth.token) };
    case 'basic':
      return { scheme: 'basic', username: auth.username, password_last4: last4(auth.password) };
  }
}

/**
 * Credentials sent over plain HTTP can be read on the way: allowed, but the customer is warned. An OAuth 2.0
 * hook sends its client secret to `token_url` and its token to the URL, so either on plain HTTP is a warning.
 * For the saved hook (its masked auth) and for a form as typed alike.
 */
export function hasInsecureCredentials(
  url: string,
  auth: { readonly scheme: string; readonly token_url?: string },
): boolean {
  if (auth.scheme === 'none') return false;
  return PLAIN_HTTP.test(url) || (auth.scheme === 'oauth2' && PLAIN_HTTP.test(auth.token_url ?? ''));
}

const PLAIN_HTTP = /^http:/i;
