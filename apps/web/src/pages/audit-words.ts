import type { AuditActor, AuditEntry } from '@hookline/core';

// The audit log in a customer's words (product.md §15 "plain words"): who, what, which fields. Never an id,
// a code or a secret; credentials are named, never shown (entries never hold them anyway).

export const ACTION_WORDS: Record<AuditEntry['action'], [string, string]> = {
  'hook.created': ['Hook created', 'badge-ok'],
  'hook.updated': ['Hook changed', ''],
  'hook.credentials_changed': ['Credentials changed', 'badge-warn'],
  'hook.signing_secret_changed': ['Signing secret changed', 'badge-warn'],
  'hook.deleted': ['Hook deleted', 'badge-warn'],
  'hook.enabled': ['Hook re-enabled', 'badge-ok'],
  'hook.probed': ['Endpoint tested before re-enabling', 'badge-warn'],
  'hook.tested': ['Test event sent', ''],
  'hook.resent': ['Event sent again', ''],
  'hook.paused': ['Hook paused', 'badge-bad'],
  'hook.resumed': ['Hook resumed', 'badge-ok'],
  'portal_link.created': ['Sign-in link made', ''],
  'portal_link.used': ['Signed in with a link', ''],
  'account.created': ['Account created', 'badge-ok'],
  'account.password_changed': ['Password changed', ''],
  'erasure.requested': ['Personal data erasure requested', 'badge-warn'],
  'erasure.done': ['Personal data erasure finished', 'badge-warn'],
};

const FIELD_WORDS: Record<string, string> = {
  url: 'address',
  format: 'format',
  auth: 'credentials',
  description: 'description',
  events: 'event kinds',
  signing: 'signing',
  signing_secret: 'signing secret',
  filter: 'filter',
  headers: 'extra headers',
  tls: 'client certificate',
};

export function actorWords(actor: AuditActor): string {
  switch (actor.kind) {
    case 'account_user':
      return 'you';
    case 'portal_session':
      return actor.read_only
        ? 'you, from your provider’s site (view only)'
        : 'you, from your provider’s site';
    case 'operator_key':
      return 'your provider';
    case 'admin':
      return `support (${actor.name})`;
    case 'start_command':
      // The command itself is for the API's readers; a page says what it was for.
      return actor.command.includes('--demo') ? 'the demo set-up' : 'the first-run set-up';
  }
}

function heldWords(held: string): string {
  if (held === 'deliver') return 'held events delivered in order';
  if (held === 'discard') return 'held events discarded';
  return 'older held events discarded, the rest delivered in order';
}

/** The sentence under an entry: what changed, or how it went. */
export function detailWords(entry: AuditEntry): string | undefined {
  const d = entry.detail;
  const parts: string[] = [];
  if (d.fields && d.fields.length > 0)
    parts.push(`Changed: ${d.fields.map((f) => FIELD_WORDS[f] ?? f).join(', ')}`);
  // A failed test applied no choice: nothing held went anywhere.
  if (d.held && d.passed !== false) parts.push(heldWords(d.held));
  if (d.passed === false)
    parts.push('the test event was not delivered, so the hook stays suspended and nothing held was sent');
  if (d.passed === true) parts.push('the endpoint accepted the test first');
  if (d.reason) parts.push(`the reason given: “${d.reason}”`);
  if (entry.action === 'erasure.requested' || entry.action === 'erasure.done')
    parts.push(d.by === 'number' ? 'everything about one phone number' : 'everything about one call');
  if (entry.action === 'erasure.done' && d.counts) {
    const total = Object.values(d.counts).reduce((sum, n) => sum + n, 0);
    parts.push(`${total} ${total === 1 ? 'record' : 'records'} erased`);
  }
  if (entry.action === 'account.created')
    parts.push(d.sign_in ? 'with a website sign-in' : 'without a website sign-in');
  if (entry.action === 'portal_link.created')
    parts.push(d.read_only ? 'for viewing only' : 'for viewing and changing');
  return parts.length > 0 ? parts.join('; ') : undefined;
}
