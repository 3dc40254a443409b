import {
  ALL_EVENTS,
  maskAuth,
  type AuthScheme,
  type HookEvents,
  type SigningKeys,
  type DeliveryRecord,
  type HookAuth,
  type HookFormat,
  type HookHeaders,
  type HookTls,
  type ClientCertificateFacts,
  clientCertificateFacts,
  clientCertificateView,
  hasInsecureCredentials,
  type HookView,
  type MaskedAuth,
} from '@hookline/core';
import type { EgressWait } from '@hookline/redis';
import type { HookTarget, SuspensionInfo } from './contracts';
import type { SecretBox } from './secret-box';

// How a hook sits in its Redis hash. The credentials are one sealed blob of the whole HookAuth (bound to the
// hook id); what may be shown of them is stored beside it, masked, so answers never need the key.
export interface StoredHook {
  readonly id: string;
  readonly account_id: string;
  readonly url: string;
  readonly format: HookFormat;
  readonly auth_scheme: AuthScheme;
  readonly auth_sealed: string;
  readonly auth_masked: MaskedAuth;
  readonly description?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: number;
  readonly suspended_at?: string;
  readonly suspended_reason?: string;
  readonly suspension_failures?: readonly DeliveryRecord[];
  readonly suspended_by?: string;
  /** The signing secrets (SigningKeys as JSON), sealed like the credentials; absent when the hook does not sign. */
  readonly signing_sealed?: string;
  /** Until when a rotated-out secret still signs (ms since epoch), beside the sealed keys so views need no key. */
  readonly signing_previous_until?: number;
  /** Extra headers (JSON in the hash); absent when none. Not secret: shown as sent. */
  readonly headers?: HookHeaders;
  /** The client certificate and key (HookTls as JSON), sealed like the credentials; absent when none. */
  readonly tls_sealed?: string;
  /** What views show of it (ClientCertificateFacts as JSON), beside the sealed part so views need no key. */
  readonly tls_facts?: ClientCertificateFacts;
}

/** Hash fields cleared when a hook stops presenting a client certificate. */
export const TLS_FIELDS = ['tls_sealed', 'tls_facts'] as const;

const tlsContext = (hookId: string) => `${hookId}:tls`;

/** The client-certificate fields of a hook's hash: sealed for this hook (its own context), facts for views. */
export function tlsFields(box: SecretBox, hookId: string, tls: HookTls): Record<string, string> {
  return {
    tls_sealed: box.seal(JSON.stringify(tls), tlsContext(hookId)),
    tls_facts: JSON.stringify(clientCertificateFacts(tls)),
  };
}

/** The hash field of a hook's extra headers: set when there are some, removed when none. */
export const HEADERS_FIELD = 'headers';

/** Hash fields cleared when a hook stops signing. */
export const SIGNING_FIELDS = ['signing_sealed', 'signing_previous_until'] as const;

/** The signing fields of a hook's hash for `keys`: sealed for this hook (a distinct context from the credentials). */
export function signingFields(box: SecretBox, hookId: string, keys: SigningKeys): Record<string, string> {
  return {
    signing_sealed: box.seal(JSON.stringify(keys), signingContext(hookId)),
    ...(keys.previous ? { signing_previous_until: String(keys.previous.until) } : {}),
  };
}

const signingContext = (hookId: string) => `${hookId}:signing`;

export function openSigningKeys(hook: StoredHook, box: SecretBox): SigningKeys | undefined {
  return hook.signing_sealed
    ? (JSON.parse(box.open(hook.signing_sealed, signingContext(hook.id))) as SigningKeys)
    : undefined;
}

/** A subscription as the account's hook-events hash holds it, and back. */
export const eventsToField = (events: HookEvents): string => (events === ALL_EVENTS ? '*' : events.join(','));
export const eventsFromField = (field: string | null | undefined): HookEvents =>
  !field || field === '*' ? ALL_EVENTS : field.split(',');

/** Hash fields cleared when a suspension ends. */
export const SUSPENSION_FIELDS = [
  'suspended_at',
  'suspended_reason',
  'suspension_failures',
  'suspended_by',
] as const;

/** The credential fields of a hook's hash for `auth`: sealed for this hook, masked for display. */
export function authFields(box: SecretBox, hookId: string, auth: HookAuth): Record<string, string> {
  return {
    auth_scheme: auth.scheme,
    auth_sealed: box.seal(JSON.stringify(auth), hookId),
    auth_masked: JSON.stringify(maskAuth(auth)),
  };
}

export function suspensionFields(info: SuspensionInfo): Record<string, string> {
  return {
    suspended_at: info.at,
    suspended_reason: info.reason,
    suspension_failures: JSON.stringify(info.failures ?? []),
    ...(info.by ? { suspended_by: info.by } : {}),
  };
}

/** The stored hook, or undefined when the hash is empty or is not this hook's (deleted, or never existed). */
export function parseStoredHook(hookId: string, raw: Record<string, string>): StoredHook | undefined {
  if (raw.id !== hookId || !raw.account_id || !raw.url || !raw.auth_sealed || !raw.auth_masked)
    return undefined;
  return {
    id: raw.id,
    account_id: raw.account_id,
    url: raw.url,
    format: raw.format === 'form' ? 'form' : 'json',
    auth_scheme: (raw.auth_scheme ?? 'none') as AuthScheme,
    auth_sealed: raw.auth_sealed,
    auth_masked: JSON.parse(raw.auth_masked) as MaskedAuth,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    created_at: raw.created_at ?? '',
    updated_at: raw.updated_at ?? raw.created_at ?? '',
    version: Number(raw.version ?? '1'),
    ...(raw.suspended_at ? { suspended_at: raw.suspended_at } : {}),
    ...(raw.suspended_reason ? { suspended_reason: raw.suspended_reason } : {}),
    ...(raw.suspended_by ? { suspended_by: raw.suspended_by } : {}),
    ...(raw.suspension_failures
      ? { suspension_failures: JSON.parse(raw.suspension_failures) as DeliveryRecord[] }
      : {}),
    ...(raw.signing_sealed ? { signing_sealed: raw.signing_sealed } : {}),
    ...(raw.signing_previous_until ? { signing_previous_until: Number(raw.signing_previous_until) } : {}),
    ...(raw.headers ? { headers: JSON.parse(raw.headers) as HookHeaders } : {}),
    ...(raw.tls_sealed && raw.tls_facts
      ? { tls_sealed: raw.tls_sealed, tls_facts: JSON.parse(raw.tls_facts) as ClientCertificateFacts }
      : {}),
  };
}

/**
 * The hook as answers show it. `paused` is the queue's flag, the single source of truth for the state; `events`
 * comes from the account's hook-events hash, the one routing reads; `now` tells whether a rotated-out secret
 * still signs (read only then: views take no time of their own).
 */
export function toHookView(
  hook: StoredHook,
  paused: boolean,
  events: HookEvents,
  now: () => Date,
  failing = false,
  egressWait?: EgressWait,
): HookView {
  const previousUntil = hook.signing_previous_until;
  return {
    id: hook.id,
    account_id: hook.account_id,
    url: hook.url,
    format: hook.format,
    auth: hook.auth_masked,
    ...(hook.description !== undefined ? { description: hook.description } : {}),
    state: paused ? 'suspended' : 'active',
    // Shown only while paused: a resume from Bull Board lifts the pause without touching these fields, and
    // an active hook must not look suspended.
    ...(paused && hook.suspended_at ? { suspended_at: hook.suspended_at } : {}),
    ...(paused && hook.suspended_reason ? { suspended_reason: hook.suspended_reason } : {}),
    created_at: hook.created_at,
    updated_at: hook.updated_at,
    insecure_credentials: hasInsecureCredentials(hook.url, hook.auth_masked),
    health: failing ? 'failing' : 'healthy',
    events,
    signing: hook.signing_sealed !== undefined,
    ...(hook.signing_sealed && previousUntil && previousUntil > now().getTime()
      ? { signing_previous_expires_at: new Date(previousUntil).toISOString() }
      : {}),
    ...(egressWait ? { egress_wait: egressWait } : {}),
    ...(hook.headers ? { headers: hook.headers } : {}),
    ...(hook.tls_facts ? { tls: clientCertificateView(hook.tls_facts, now()) } : {}),
  };
}

export function toHookTarget(hook: StoredHook, box: SecretBox): HookTarget {
  return {
    id: hook.id,
    accountId: hook.account_id,
    url: hook.url,
    format: hook.format,
    auth: JSON.parse(box.open(hook.auth_sealed, hook.id)) as HookAuth,
    ...(hook.signing_sealed ? { signing: openSigningKeys(hook, box) } : {}),
    ...(hook.headers ? { headers: hook.headers } : {}),
    ...(hook.tls_sealed
      ? { tls: JSON.parse(box.open(hook.tls_sealed, tlsContext(hook.id))) as HookTls }
      : {}),
    version: hook.version,
  };
}

export function toSuspensionInfo(hook: StoredHook): SuspensionInfo | undefined {
  if (!hook.suspended_at) return undefined;
  return {
    at: hook.suspended_at,
    reason: hook.suspended_reason ?? '',
    failures: hook.suspension_failures ?? [],
    ...(hook.suspended_by ? { by: hook.suspended_by } : {}),
  };
}
