import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks v1 signatures (the scheme Svix and the `standardwebhooks` libraries verify): the secret is
// `whsec_` + base64 of the key bytes; the signed content is `<id>.<timestamp>.<body>`; the header carries
// `v1,<base64 HMAC-SHA256>`, several space-separated while a rotated-out secret is still honoured.

export const SIGNING_SECRET_PREFIX = 'whsec_';
const KEY_BYTES = 32;

/** How long a rotated-out secret still signs, so receivers can switch secrets without losing a request. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

/** A hook's signing secrets, as the worker holds them (in memory only; sealed at rest). */
export interface SigningKeys {
  readonly current: string;
  /** The secret before the last rotation, signing beside the current one until `until` (ms since epoch). */
  readonly previous?: { readonly secret: string; readonly until: number };
}

export const SIGNATURE_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`;
}

export function isSigningSecret(value: string): boolean {
  return (
    value.startsWith(SIGNING_SECRET_PREFIX) &&
    Buffer.from(value.slice(SIGNING_SECRET_PREFIX.length), 'base64').length === KEY_BYTES
  );
}

/** The keys a secret is rotated to: the new one current, the old one honoured for the grace period. */
export function rotatedKeys(keys: SigningKeys | undefined, secret: string, now: Date): SigningKeys {
  if (!keys) return { current: secret };
  return {
    current: secret,
    previous: { secret: keys.current, until: now.getTime() + PREVIOUS_SECRET_GRACE_MS },
  };
}

/** `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>` for one secret. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SIGNING_SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed request sent at `sentAt`: the current secret's signature first. */
export function signatureHeaders(
  keys: SigningKeys,
  id: string,
  sentAt: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const secrets = [keys.current];
  if (keys.previous && sentAt.getTime() < keys.previous.until) secrets.push(keys.previous.secret);
  return {
    [SIGNATURE_HEADERS.id]: id,
    [SIGNATURE_HEADERS.timestamp]: String(timestamp),
    [SIGNATURE_HEADERS.signature]: secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
