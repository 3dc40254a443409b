import { createHash } from 'node:crypto';
import type { ErasureCounts } from './erasure';
import type { HookView, UpdateHookInput } from './hook';

// The audit log's vocabulary (product.md §16): every change someone made, who made it, when, from where and
// what. Shared by the front doors that record entries, the database that keeps them and the pages that show
// them. Nothing here ever holds a secret: credential changes are named by field, never by value.

export type AuditAction =
  | 'hook.created'
  | 'hook.updated'
  | 'hook.deleted'
  /** A change that gave the hook new credentials (`auth`); the entry names the fields, never the values. */
  | 'hook.credentials_changed'
  /** The hook's signing secret was replaced (a rotation, or set by the operator). */
  | 'hook.signing_secret_changed'
  | 'hook.enabled'
  /** A test event sent to the hook (the website's and the API's "send a test"). */
  | 'hook.tested'
  /** A re-enable that tried the endpoint first; `detail.probe` says whether it passed. */
  | 'hook.probed'
  | 'hook.resent'
  | 'hook.paused'
  | 'hook.resumed'
  | 'portal_link.created'
  | 'portal_link.used'
  /** An account was created; `detail.sign_in` says whether it was given a website sign-in (email and password). */
  | 'account.created'
  | 'account.password_changed'
  /** An erasure of personal data was asked for; the entry says by what (call or number), never the value. */
  | 'erasure.requested'
  /**
   * That erasure is done: the entry names who asked for it (actor and address as when asked), by what, and how
   * many records it erased in each place (`detail.counts`), never the value.
   */
  | 'erasure.done';

export type AuditActor =
  /** Someone signed in on the website with the account's password. */
  | { readonly kind: 'account_user' }
  /** A website session opened by a sign-in link; `link` is the link's fingerprint (not the token). */
  | { readonly kind: 'portal_session'; readonly read_only: boolean; readonly link: string }
  /** A call with the operator key, named by the key's fingerprint. */
  | { readonly kind: 'operator_key'; readonly key: string }
  /** An admin on Bull Board, by their user name. */
  | { readonly kind: 'admin'; readonly name: string }
  /**
   * The all-in-one start on the operator's machine (`pnpm start`, `pnpm start --demo`) setting up its
   * first-run account and the demo hook; `command` is the command as typed.
   */
  | { readonly kind: 'start_command'; readonly command: string };

/** What a change was about; every field is optional and none holds a credential's value. */
export interface AuditDetail {
  /**
   * hook.created, hook.deleted: the hook's address and description as they were then, so the entry still says
   * which endpoint it was once the hook is gone. The address holds no credentials: a hook's URL with user-info
   * (`user:password@`) is refused; its credentials are kept apart (`auth`) and never recorded.
   */
  readonly url?: string;
  readonly description?: string;
  /** hook.updated: the fields given (credentials by name only). */
  readonly fields?: string[];
  /** hook.enabled: what was done with the held events (`deliver`, `discard`, or `since <ISO time>`). */
  readonly held?: string;
  /** hook.paused: the reason the admin gave (the customer reads it on the hook's page), when one was given. */
  readonly reason?: string;
  /** hook.probed: whether the test request passed (and so the hook was re-enabled). */
  readonly passed?: boolean;
  /** hook.resent: the attempt that was sent again, and the new attempt. */
  readonly attempt_id?: string;
  readonly new_attempt_id?: string;
  /** hook.tested: the sample event. */
  readonly event_id?: string;
  /** portal_link.*: the link's fingerprint, whether its session is read-only, and until when it could be used. */
  readonly link?: string;
  readonly read_only?: boolean;
  readonly expires_at?: string;
  /** account.created: whether the account got a website sign-in (an email and a password; neither is kept here). */
  readonly sign_in?: boolean;
  /** erasure.*: the erasure, and whether it matches a call or a number (never the value asked for). */
  readonly erasure_id?: string;
  readonly by?: 'call_id' | 'number';
  /** erasure.done: how many records it erased, per place (the erasure's own counts). */
  readonly counts?: ErasureCounts;
}

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly account_id: string;
  readonly action: AuditAction;
  readonly hook_id?: string;
  readonly actor: AuditActor;
  /** The client's address as the HTTP tier saw it (behind trusted proxies, the forwarded one). */
  readonly address?: string;
  readonly detail: AuditDetail;
}

export type AuditInput = Omit<AuditEntry, 'id' | 'at'>;

export const AUDIT_ID = /^aud_[0-9a-z]{25}$/;

/** A secret's public name: the first 16 hex digits of its SHA-256. Enough to tell keys apart, useless to an attacker. */
export function fingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 16)}`;
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
// No filter or headers given and none kept are the same, whichever empty form each takes.
const sameJson = (a: unknown, b: unknown) =>
  (isEmpty(a) && isEmpty(b)) || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields a change really changes, by name, sorted: a form sends every field, the entry names only those
 * that differ. A view holds no credential values, so credentials given count as a change here, except "none"
 * for "none": callers first leave out those given again as the hook has them (the store compares the sealed
 * ones, `Hooks.withoutKeptCredentials`).
 */
export function changedHookFields(before: HookView, input: UpdateHookInput): string[] {
  const fields: string[] = [];
  if (input.url !== undefined && input.url !== before.url) fields.push('url');
  if (input.format !== undefined && input.format !== before.format) fields.push('format');
  if (input.description !== undefined && (input.description ?? undefined) !== before.description)
    fields.push('description');
  if (input.events !== undefined && !sameJson(input.events, before.events)) fields.push('events');
  if (input.filter !== undefined && !sameJson(input.filter, before.filter)) fields.push('filter');
  if (input.headers !== undefined && !sameJson(input.headers, before.headers)) fields.push('headers');
  // A client certificate given counts (see above); removing one that was there counts.
  if (input.tls !== undefined && (input.tls !== null || before.tls !== undefined)) fields.push('tls');
  if (input.signing !== undefined && input.signing !== before.signing) fields.push('signing');
  if (input.auth !== undefined && !(input.auth.scheme === 'none' && before.auth.scheme === 'none'))
    fields.push('auth');
  return fields.sort();
}

/**
 * Which action a hook change is: a credentials change, a signing change, or another change. A client
 * certificate comes with its private key (write-only, sealed like the credentials), so a `tls` change is a
 * credentials change too: an operator reviewing who changed credentials must see key replacements.
 */
export function hookChangeAction(fields: readonly string[]): AuditAction {
  if (fields.includes('auth') || fields.includes('tls')) return 'hook.credentials_changed';
  if (fields.includes('signing')) return 'hook.signing_secret_changed';
  return 'hook.updated';
}

/** What a hook.created or hook.deleted entry records of the hook: its address and description, nothing else. */
export function hookNamed(hook: Pick<HookView, 'url' | 'description'>): AuditDetail {
  return { url: hook.url, ...(hook.description ? { description: hook.description } : {}) };
}

/** A held-events choice as an entry records it. */
export function heldChoiceText(held: 'deliver' | 'discard' | { readonly since: Date }): string {
  return typeof held === 'string' ? held : `since ${held.since.toISOString()}`;
}
