// Hook authentication as the customer configured it. Secrets are only ever held in this shape in memory;
// at rest they are encrypted (see @hookline/store) and in answers they are masked.
export type HookAuth =
  | { readonly scheme: 'none' }
  | { readonly scheme: 'bearer'; readonly token: string }
  | { readonly scheme: 'basic'; readonly username: string; readonly password: string };

export type AuthScheme = HookAuth['scheme'];
export const AUTH_SCHEMES = ['none', 'bearer', 'basic'] as const;

/** RFC 7617 for Basic: base64 of the UTF-8 bytes of "username:password". */
export function authorizationHeader(auth: HookAuth): string | undefined {
  switch (auth.scheme) {
    case 'none':
      return undefined;
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'basic':
      return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }
}

/** What an answer or a page may show of the credentials: the scheme and the last 4 characters at most. */
export type MaskedAuth =
  | { readonly scheme: 'none' }
  | { readonly scheme: 'bearer'; readonly token_last4: string }
  | { readonly scheme: 'basic'; readonly username: string; readonly password_last4: string };

const last4 = (secret: string) => (secret.length > 8 ? secret.slice(-4) : '');

export function maskAuth(auth: HookAuth): MaskedAuth {
  switch (auth.scheme) {
    case 'none':
      return { scheme: 'none' };
    case 'bearer':
      return { scheme: 'bearer', token_last4: last4(auth.token) };
    case 'basic':
      return { scheme: 'basic', username: auth.username, password_last4: last4(auth.password) };
  }
}
