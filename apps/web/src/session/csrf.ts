import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Session } from './session-store';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export type CsrfVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// Hosts only: behind a TLS-terminating proxy the browser's scheme (https) differs from the one we see (http).
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined; // "null" (sandboxed frames, some redirects) never matches
  }
}

function submittedToken(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string') return header;
  const body = request.body;
  if (typeof body === 'object' && body !== null) {
    const field = (body as Record<string, unknown>)[CSRF_FIELD];
    if (typeof field === 'string') return field;
  }
  return undefined;
}

/**
 * Synchronizer-token check for every state-changing request, plus an Origin check when the browser sends
 * one: a page on another origin can neither read our token nor pass as us. SameSite=Lax alone would not
 * do, because other ports of the same host count as the same site.
 */
export function verifyCsrf(request: FastifyRequest, session: Session | undefined): CsrfVerdict {
  const origin = request.headers.origin;
  if (origin !== undefined && originHost(origin) !== request.host)
    return { ok: false, reason: `cross-origin request from ${origin}` };
  if (!session) return { ok: false, reason: 'no session' };
  const token = submittedToken(request);
  if (token === undefined) return { ok: false, reason: 'missing CSRF token' };
  if (!sameToken(token, session.data.csrf)) return { ok: false, reason: 'wrong CSRF token' };
  return { ok: true };
}
