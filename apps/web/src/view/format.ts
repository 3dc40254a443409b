import {
  isAdminPause,
  plainWords,
  recordedErrorInWords,
  sentNothingBecause,
  type HookHealthState,
  type HookView,
  type MaskedAuth,
  type RecordedOutcome,
} from '@hookline/core';
import { html, type SafeHtml } from './html';
import { DEFAULT_ZONE, timeInWords } from './zone';

/** In words, in UTC on the server; the script writes it in the page's zone (the browser's), named on the page. */
export function time(iso: string): SafeHtml {
  return html`<time datetime="${iso}" data-local>${timeText(iso)}</time>`;
}

/** The text of `time` before the script writes it in the page's zone. */
export const timeText = (iso: string): string =>
  timeInWords(new Date(iso), DEFAULT_ZONE).replace(/ \(UTC\)$/, '');

export function ago(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

/** A setting's time in words: "15 seconds", "1.5 seconds", "800 milliseconds". */
export function deadlineText(ms: number): string {
  if (ms < 1000) return `${ms} milliseconds`;
  const seconds = Number((ms / 1000).toFixed(1));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * A recorded error as a customer reads it, in words: the ones the deliverer records (the system's codes, no
 * OAuth 2.0 token, the egress proxy) by what they mean, any other recorded sentence in plain words.
 */
export function errorText(error: string): SafeHtml {
  const words = recordedErrorInWords(error);
  return words ? html`<span>${words[0]!.toUpperCase()}${words.slice(1)}</span>` : recordedText(error);
}

const ISO_TIME = /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)/;

/**
 * A recorded sentence (a discard's reason, an activity's detail) in plain words: its ISO times become times
 * in the page's zone, actor ids and error codes words.
 */
export function recordedText(text: string): SafeHtml {
  const parts = text.split(ISO_TIME);
  return html`${parts.map((part, i) => (i % 2 === 1 ? time(part) : html`${plainWords(part)}`))}`;
}

type Tone = 'ok' | 'bad' | 'warn' | 'neutral';
const OUTCOMES: Record<RecordedOutcome, [string, Tone]> = {
  delivered: ['Delivered', 'ok'],
  failed: ['Failed', 'bad'],
  timed_out: ['Timed out', 'bad'],
  error: ['Connection error', 'bad'],
  blocked: ['Blocked', 'bad'],
  unknown: ['Unknown', 'warn'],
  expired: ['Expired', 'warn'],
  discarded: ['Discarded', 'neutral'],
  erased: ['Erased', 'neutral'],
};

function badge(label: string, tone: Tone): SafeHtml {
  return html`<span class="badge ${tone === 'neutral' ? '' : `badge-${tone}`}">${label}</span>`;
}

export function outcomeBadge(outcome: RecordedOutcome): SafeHtml {
  const [label, tone] = OUTCOMES[outcome] ?? [outcome, 'neutral'];
  return badge(label, tone);
}

// An `error` attempt that sent nothing (sentNothingBecause): the endpoint was not reached, so not its connection.
const SENT_NOTHING: Record<NonNullable<ReturnType<typeof sentNothingBecause>>, string> = {
  no_token: 'No token',
  kept_back: 'Not sent',
};

/** The badge of an `error` attempt that sent nothing, by why: the log's and the health card's alike. */
export const sentNothingBadge = (why: keyof typeof SENT_NOTHING): SafeHtml => badge(SENT_NOTHING[why], 'bad');

/** One attempt's badge: its outcome, or for an error that sent nothing, what kept it back. */
export function attemptBadge(record: {
  readonly outcome: RecordedOutcome;
  readonly error?: string;
}): SafeHtml {
  const keptBack = record.outcome === 'error' ? sentNothingBecause(record.error) : undefined;
  return keptBack ? sentNothingBadge(keptBack) : outcomeBadge(record.outcome);
}

/** An outcome in the words its badge uses, for the log's filter: the same outcome reads the same everywhere. */
export function outcomeLabel(outcome: RecordedOutcome): string {
  return OUTCOMES[outcome]?.[0] ?? outcome;
}

/**
 * An admin's pause in Bull Board is recorded with this reason (and the admin's words after a colon): only an
 * admin lifts it, so pages call it paused, not suspended.
 */
export function pausedByAdmin(hook: Pick<HookView, 'state' | 'suspended_reason'>): boolean {
  return hook.state === 'suspended' && isAdminPause(hook.suspended_reason);
}

/** Paused by an admin, suspended, failing (half-way to a suspension) or active. */
export function stateBadge(hook: Pick<HookView, 'state' | 'health' | 'suspended_reason'>): SafeHtml {
  if (pausedByAdmin(hook)) return badge('Paused by an administrator', 'bad');
  if (hook.state === 'suspended') return badge('Suspended', 'bad');
  const health: HookHealthState = hook.health;
  return health === 'failing' ? badge('Failing', 'warn') : badge('Active', 'ok');
}

export function authSummary(auth: MaskedAuth): string {
  switch (auth.scheme) {
    case 'none':
      return 'No authentication';
    case 'bearer':
      return `Bearer token ••••${auth.token_last4}`;
    case 'basic':
      // §4: the scheme and the last 4 characters at most; the username is a credential too.
      return `Basic ••••${auth.password_last4}`;
    case 'oauth2':
      return `OAuth 2.0 client credentials: ${auth.client_id} at ${auth.token_url}`;
  }
}

export const formatLabel = (format: string) => (format === 'json' ? 'JSON' : 'Form (x-www-form-urlencoded)');

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
