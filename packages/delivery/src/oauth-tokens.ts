import {
  errorInWords,
  Lru,
  type AttemptResult,
  type NotSent,
  type OAuth2Auth,
  type SendResult,
} from '@hookline/core';
import type { DeliveryRequest } from '@hookline/core';

/** What asking for a hook's OAuth 2.0 token gave: a token, an attempt that failed for want of one, or nothing sent. */
export type TokenResult =
  | { readonly kind: 'token'; readonly token: string }
  /** No token: the attempt's outcome (`error`), with the token endpoint's reason; the endpoint got nothing. */
  | { readonly kind: 'failed'; readonly result: AttemptResult }
  /** The egress proxy kept the token request from leaving: the event waits, like any request it keeps back. */
  | { readonly kind: 'not_sent'; readonly result: NotSent };

/** The hook whose token it is: its id, and the version of its settings (a new secret means a new token). */
export interface TokenOwner {
  readonly id: string;
  readonly version: number;
  readonly auth: OAuth2Auth;
}

interface Cached {
  readonly version: number;
  readonly token: string;
  /** When a tenth of the token's lifetime is left: asked for again from then on. */
  readonly renewAt: number;
}

const CACHE_MAX = 10_000;
/** A token answer is read whole up to this (a JWT with many claims runs to several KiB); past it, refused. */
export const TOKEN_ANSWER_MAX_BYTES = 64 * 1024;

// RFC 6749 §2.3.1: client_secret_basic encodes id and secret as form values before base64.
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for hooks, per process: a token is asked for through the same
 * deliverer as the deliveries (network policy, egress proxy, deadline) and kept per hook while more than a
 * tenth of its `expires_in` is left; a token without `expires_in` serves one attempt. `forget` drops a hook's
 * token (the endpoint answered 401).
 */
export class OAuthTokens {
  private readonly cache = new Lru<string, Cached>(CACHE_MAX);

  constructor(
    /** The deliverer's attempt: `began`, the attempt's start on its stopwatch, starts the deadline the token shares. */
    private readonly send: (request: DeliveryRequest, began?: number) => Promise<SendResult>,
    private readonly now: () => number = Date.now,
  ) {}

  /** `began`: the start of the attempt the token is for (see `send`); its deadline covers the token request. */
  async token(owner: TokenOwner, began?: number): Promise<TokenResult> {
    const cached = this.cache.get(owner.id);
    if (cached && cached.version === owner.version && this.now() < cached.renewAt)
      return { kind: 'token', token: cached.token };
    this.cache.delete(owner.id);
    const asked = this.now();
    const result = await this.send(tokenRequest(owner.auth), began);
    if (result.outcome === 'not_sent') return { kind: 'not_sent', result };
    const failed = (why: string): TokenResult => ({
      kind: 'failed',
      result: {
        outcome: 'error',
        durationMs: result.durationMs,
        error: `no OAuth 2.0 token from ${owner.auth.token_url}: ${why}; nothing was sent to the endpoint`,
      },
    });
    if (result.outcome !== 'delivered')
      return failed(
        result.statusCode !== undefined
          ? `the token endpoint answered ${result.statusCode}${errorWords(result.responseExcerpt)}`
          : `${result.outcome === 'blocked' ? 'blocked: ' : ''}${systemWords(result.error ?? result.outcome)}`,
      );
    const answer = parseTokenAnswer(result.responseExcerpt);
    if (typeof answer === 'string') return failed(answer);
    if (answer.expiresIn !== undefined)
      this.cache.set(owner.id, {
        version: owner.version,
        token: answer.token,
        renewAt: asked + answer.expiresIn * 900,
      });
    return { kind: 'token', token: answer.token };
  }

  forget(hookId: string): void {
    this.cache.delete(hookId);
  }
}

function tokenRequest(auth: OAuth2Auth): DeliveryRequest {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (auth.scope !== undefined) form.set('scope', auth.scope);
  if (auth.audience !== undefined) form.set('audience', auth.audience);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (auth.client_auth === 'post') {
    form.set('client_id', auth.client_id);
    form.set('client_secret', auth.client_secret);
  } else {
    const pair = `${formEncode(auth.client_id)}:${formEncode(auth.client_secret)}`;
    headers['Authorization'] = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  return { url: auth.token_url, headers, body: form.toString(), keepResponseBytes: TOKEN_ANSWER_MAX_BYTES };
}

/**
 * A connection error in words, the system's own kept in brackets for operators: "the token endpoint refused
 * the connection (ECONNREFUSED 127.0.0.1:8443)".
 */
function systemWords(error: string): string {
  const words = errorInWords(error);
  if (!words) return error;
  const own = words.replace(/^the endpoint\b/, 'the token endpoint');
  // An error the deliverer recorded in words already has no system's word to keep.
  return words === error ? own : `${own} (${error})`;
}

/** RFC 6749 §5.2's `error` and `error_description`, when the refusal carries them. */
function errorWords(excerpt: string | undefined): string {
  try {
    const body = JSON.parse(excerpt ?? '') as { error?: unknown; error_description?: unknown };
    if (typeof body.error !== 'string') return '';
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    return ` (${body.error}${description})`.slice(0, 300);
  } catch {
    return '';
  }
}

/** RFC 6749 §5.1: a Bearer `access_token`, with `expires_in` seconds when given. Words when it is not that. */
function parseTokenAnswer(excerpt: string | undefined): { token: string; expiresIn?: number } | string {
  let body: { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(excerpt ?? '') as typeof body;
  } catch {
    return `the token endpoint did not answer with JSON (or with more than ${TOKEN_ANSWER_MAX_BYTES / 1024} KiB)`;
  }
  if (typeof body.access_token !== 'string' || !/^[\x21-\x7e]+$/.test(body.access_token))
    return 'the answer has no usable access_token';
  if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
    return `the token is of type ${body.token_type.slice(0, 40)}, not Bearer`;
  const expiresIn = Number(body.expires_in);
  return Number.isFinite(expiresIn) && expiresIn > 0
    ? { token: body.access_token, expiresIn }
    : { token: body.access_token };
}
