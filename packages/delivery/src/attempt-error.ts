import { NOT_HTTP, type AttemptOutcome } from '@hookline/core';
import { isDestinationBlocked } from './destination-blocked';

// undici's connect timeout is a backstop behind the attempt's timer (its header and body timeouts are off:
// attempt-deadline.ts); if it fires first it is the same event: no status within the deadline.
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT']);

interface ErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

const asErrorLike = (err: unknown): ErrorLike => (typeof err === 'object' && err !== null ? err : {});

/** The innermost errno-style code: undici wraps socket errors, happy eyeballs aggregates them. */
function codeOf(err: unknown): string | undefined {
  const e = asErrorLike(err);
  const nested = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  const inner = nested === undefined ? undefined : codeOf(nested);
  const own = typeof e.code === 'string' ? e.code : undefined;
  // Prefer the operating system's word (ECONNRESET) over undici's generic socket code.
  return own && !own.startsWith('UND_ERR') ? own : (inner ?? own);
}

/**
 * A short text for the delivery log: the error code, plus the message when it says more than the code
 * (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET: other side closed`). Never includes request data.
 */
export function shortErrorText(err: unknown): string {
  const e = asErrorLike(err);
  const code = codeOf(err);
  const message = typeof e.message === 'string' ? e.message : String(err);
  const text = !code ? message : message.includes(code) || !message ? code : `${code}: ${message}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** A status line whose code is not an HTTP status (RFC 9110 §15: 100 to 599). */
export const statusOutOfRange = (status: number | string) =>
  `${NOT_HTTP}: status ${status} is outside 100–599`;

export function classifyAttemptError(err: unknown): { outcome: AttemptOutcome; error: string } {
  if (isDestinationBlocked(err)) return { outcome: 'blocked', error: err.message };
  // undici refuses a status under 100 with an assertion of its own (`assert(statusCode >= 100)`), not a word.
  const e = asErrorLike(err);
  if (e.code === 'ERR_ASSERTION' && typeof e.message === 'string' && e.message.includes('statusCode >= 100'))
    return { outcome: 'error', error: statusOutOfRange('under 100') };
  const code = codeOf(err);
  if (code && TIMEOUT_CODES.has(code)) return { outcome: 'timed_out', error: shortErrorText(err) };
  return { outcome: 'error', error: shortErrorText(err) };
}
