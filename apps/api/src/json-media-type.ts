import type { FastifyRequest } from 'fastify';
import { HooklineError } from '@hookline/core';

// A charset shown back in the answer is a token as HTTP defines it (RFC 9110 §5.6.2), bounded.
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]{1,40}$/i;

/**
 * The JSON parser is matched on the media type alone, so `application/json; charset=iso-8859-1` reached it and
 * its bytes were read as UTF-8 all the same: a client that meant Latin-1 had `Café` stored as something else,
 * or refused as "not valid UTF-8" without a word about the charset it declared. JSON is UTF-8 (RFC 8259 §8.1):
 * any other declared charset is refused, as is a second Content-Type (Node keeps the first; a proxy in front
 * may have judged the other).
 */
export function checkJsonMediaType(request: FastifyRequest): void {
  const sent = request.raw.headersDistinct['content-type']?.length ?? 0;
  if (sent > 1)
    throw new HooklineError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request has ${sent} Content-Type headers; send one: Content-Type: application/json`,
    );
  const charset = charsetOf(request.headers['content-type'] ?? '');
  if (charset === undefined || /^utf-?8$/i.test(charset)) return;
  throw new HooklineError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Type charset ${TOKEN.test(charset) ? charset : 'other than utf-8'} is not supported: ` +
      'send the body as UTF-8 (Content-Type: application/json)',
  );
}

/** The charset parameter's value, unquoted; undefined without one. Given twice, the one that is not UTF-8. */
function charsetOf(contentType: string): string | undefined {
  const given = contentType
    .split(';')
    .slice(1)
    .map((parameter) => parameter.split('='))
    .filter(([name]) => name?.trim().toLowerCase() === 'charset')
    .map(([, ...value]) =>
      value
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  return given.find((charset) => !/^utf-?8$/i.test(charset)) ?? given[0];
}
