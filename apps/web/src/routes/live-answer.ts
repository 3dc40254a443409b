import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SafeHtml } from '../view/html';

/**
 * A live page's parts for its script (assets/script.ts), answered conditionally: the ETag is a hash of what
 * the parts say, so an unchanged page answers 304 with no body. `headers` travel with both answers (the
 * script reloads the page when one says its shape changed: another state, hooks added or removed).
 */
export function liveAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  parts: Readonly<Record<string, SafeHtml>>,
  headers: Readonly<Record<string, string>> = {},
): FastifyReply {
  const body = Object.entries(parts)
    .map(([name, part]) => `<template data-live="${name}">${part.value}</template>`)
    .join('');
  const hash = createHash('sha256');
  for (const [name, value] of Object.entries(headers)) hash.update(`${name}:${value}\n`);
  const etag = `"${hash.update(body).digest('base64url').slice(0, 27)}"`;
  void reply.header('etag', etag).header('cache-control', 'private, no-cache').headers(headers);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('text/html; charset=utf-8').send(body);
}
