import type { HookState, MaskedAuth, RecordedOutcome } from '@hookline/core';
import { html, type SafeHtml } from './html';

/** UTC text on the server; the script turns it into the visitor's local time. */
export function time(iso: string): SafeHtml {
  const text = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') + ' UTC';
  return html`<time datetime="${iso}" data-local>${text}</time>`;
}

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

// The delivery log keeps the system's word for a failure (ECONNREFUSED …) for operators and the API; a page
// says it in a sentence and keeps the word in the tooltip.
const ERROR_SENTENCES: [RegExp, string][] = [
  [/^ECONNREFUSED\b/, 'The endpoint refused the connection'],
  [/^(ENOTFOUND|EAI_AGAIN)\b/, 'The host name could not be found'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/, 'The connection was closed before an answer'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/, 'No answer in time'],
  [/^(EHOSTUNREACH|ENETUNREACH)\b/, 'The host could not be reached'],
  [
    /^(ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL)/,
    'The TLS certificate or handshake was not accepted',
  ],
];

/** A recorded error as a customer reads it, with the recorded text in the tooltip. */
export function errorText(error: string): SafeHtml {
  const sentence = ERROR_SENTENCES.find(([pattern]) => pattern.test(error))?.[1];
  return sentence ? html`<span title="${error}">${sentence}</span>` : html`${error}`;
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
};

function badge(label: string, tone: Tone): SafeHtml {
  return html`<span class="badge ${tone === 'neutral' ? '' : `badge-${tone}`}">${label}</span>`;
}

export function outcomeBadge(outcome: RecordedOutcome): SafeHtml {
  const [label, tone] = OUTCOMES[outcome] ?? [outcome, 'neutral'];
  return badge(label, tone);
}

export function stateBadge(state: HookState): SafeHtml {
  return state === 'active' ? badge('Active', 'ok') : badge('Suspended', 'bad');
}

export function authSummary(auth: MaskedAuth): string {
  switch (auth.scheme) {
    case 'none':
      return 'No authentication';
    case 'bearer':
      return `Bearer token ••••${auth.token_last4}`;
    case 'basic':
      return `Basic: ${auth.username} / ••••${auth.password_last4}`;
  }
}

export const formatLabel = (format: string) => (format === 'json' ? 'JSON' : 'Form (x-www-form-urlencoded)');

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
