import type { FastifyReply } from 'fastify';

// Only our own stylesheet and script run; no page can be framed, and forms post only to us.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export function setSecurityHeaders(reply: FastifyReply): void {
  reply
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
  // Pages show one account's data: never kept by a shared cache or the back button after sign-out.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
