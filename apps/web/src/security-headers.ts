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

/** `https`: the site is served over https, so browsers are told to use nothing else for a year. */
export function setSecurityHeaders(reply: FastifyReply, https: boolean): void {
  if (https) reply.header('strict-transport-security', 'max-age=31536000');
  reply
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
  // Pages show one account's data: never kept by a shared cache or the back button after sign-out.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
