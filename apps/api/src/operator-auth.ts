import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HooklineError } from '@hookline/core';

export const WWW_AUTHENTICATE = 'Bearer realm="hookline"';

// Both sides are hashed first so the comparison is constant-time and of equal length whatever the caller
// sent; the key's length is not revealed either.
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** An onRequest hook that lets through only `Authorization: Bearer <operator key>`. */
export function requireOperatorKey(apiKey: string): (request: FastifyRequest) => Promise<void> {
  const expected = digest(apiKey);
  return async (request) => {
    // Authorization is not a list (RFC 9110 §11.6.2), so two of them are ambiguous: Node keeps the first, and a
    // proxy in front may have judged the other. Refused rather than guessed.
    const sent = request.raw.headersDistinct.authorization?.length ?? 0;
    if (sent > 1)
      throw new HooklineError(
        'MALFORMED_REQUEST',
        `The request has ${sent} Authorization headers; send one: Authorization: Bearer <key>`,
      );
    const header = request.headers.authorization ?? '';
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const given = digest(match?.[1] ?? '');
    // Always compare, even without a token, so a missing header costs what a wrong one does.
    if (!timingSafeEqual(given, expected) || !match)
      throw new HooklineError(
        'UNAUTHORIZED',
        'A valid operator key is required: Authorization: Bearer <key>',
      );
  };
}
