import type { FastifyReply } from 'fastify';

// The admin area gets the website's browser protections. Bull Board's page sets inline styles (its loading
// screen, React's style attributes), so styles may be inline, and a <base> of its own; scripts only come from
// its own static files.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/** `https`: the site is served over https (HOOKLINE_PUBLIC_URL). */
export function setAdminSecurityHeaders(reply: FastifyReply, https: boolean): void {
  if (https) reply.header('strict-transport-security', 'max-age=31536000');
  reply
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
  // As the website's pages: what an admin sees (accounts, hooks, queues' jobs) is kept by no shared cache and
  // no back button; only Bull Board's own static files say otherwise, for themselves.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
