import type { FastifyReply } from 'fastify';

/** Who may frame the website, and where its forms may lead besides itself. */
export interface PagePolicy {
  /** HOOKLINE_FRAME_ANCESTORS: the operator's origins; empty, no page may frame the website. */
  readonly frameAncestors: readonly string[];
  /** The operator's page a sign-in link's session goes back to on sign-out (a form's redirect target). */
  readonly formTargets?: readonly string[];
}

// Only our own stylesheet and script run; pages are framed only by the operator's origins (none by default),
// and forms post only to us (and a sign-in link's session signs out to the operator's page).
function csp(policy: PagePolicy): string {
  const ancestors = policy.frameAncestors.length > 0 ? policy.frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${["'self'", ...(policy.formTargets ?? [])].join(' ')}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** `https`: the site is served over https, so browsers are told to use nothing else for a year. */
export function setSecurityHeaders(
  reply: FastifyReply,
  https: boolean,
  policy: PagePolicy = { frameAncestors: [] },
): void {
  if (https) reply.header('strict-transport-security', 'max-age=31536000');
  reply
    .header('content-security-policy', csp(policy))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
  // X-Frame-Options cannot name origins: DENY when nobody may frame the website, and absent when some may
  // (a DENY there would contradict frame-ancestors for browsers that read only the older header).
  if (policy.frameAncestors.length === 0) reply.header('x-frame-options', 'DENY');
  // Pages show one account's data: never kept by a shared cache or the back button after sign-out.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
