import type { FastifyReply, FastifyRequest } from 'fastify';
import { HooklineError } from '@hookline/core';

// A token as HTTP defines it (RFC 9110 §5.6.2), bounded: a coding shown back in the answer is one of these.
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]{1,40}$/;
const SHOWN_MAX = 5;

/**
 * preParsing hook of the routes that take a body. Nothing here decodes a body's Content-Encoding, and Fastify
 * does not either: it hands the compressed bytes to the JSON parser, whose answer ("not valid UTF-8") sent the
 * client looking in the wrong place. A body in any coding but identity is refused with 415 before a byte of it
 * is read, naming the header, with Accept-Encoding: identity beside it (RFC 9110 §12.5.3).
 */
export async function refuseEncodedBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const codings = contentCodings(request.headers['content-encoding']);
  if (codings.length === 0 || !hasBody(request)) return;
  void reply.header('accept-encoding', 'identity');
  throw new HooklineError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${shown(codings)} is not supported: send the body uncompressed`,
  );
}

/** The codings applied, lower-cased, `identity` (no coding) left out. Repeated headers arrive joined by commas. */
function contentCodings(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

// The header's own words when they are codings; anything else (or a long list) is not echoed back.
function shown(codings: readonly string[]): string {
  if (codings.length > SHOWN_MAX || !codings.every((coding) => TOKEN.test(coding)))
    return 'other than identity';
  return codings.join(', ');
}

// Fastify's own test of whether a request has a body to parse: one of no length carries no coded bytes.
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
