import { createHash, timingSafeEqual } from 'node:crypto';

export interface AdminCredentials {
  /** HOOKLINE_ADMIN_USER */
  readonly user: string;
  /** HOOKLINE_ADMIN_PASSWORD */
  readonly password: string;
}

/**
 * Checks an `Authorization: Basic …` header (RFC 7617) against the admin credentials. Both parts are compared
 * as hashes in constant time, so neither the length nor a prefix of the password leaks through timing.
 */
export function isAdmin(header: string | undefined, admin: AdminCredentials): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const userOk = sameSecret(decoded.slice(0, colon), admin.user);
  const passwordOk = sameSecret(decoded.slice(colon + 1), admin.password);
  return userOk && passwordOk;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const BASIC_CHALLENGE = 'Basic realm="hookline admin", charset="UTF-8"';
