import { z } from 'zod';
import { parseReturnUrl, RETURN_URL_MAX } from '@hookline/core';
import { auditRecorder } from '../audit';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const TTL = 'must be a whole number of seconds from 30 to 3600';

export const portalLinkBody = z.strictObject({
  // Kept and sent in its parsed form (punycode host, percent-encoded path): a valid Location header and href.
  return_url: z
    .string()
    .max(RETURN_URL_MAX, `must be at most ${RETURN_URL_MAX} characters`)
    .transform((value, ctx) => {
      const parsed = parseReturnUrl(value);
      if ('href' in parsed) return parsed.href;
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    })
    .optional()
    .describe(
      'Where a used or expired link, and signing out, lead back to (your own site): an absolute http(s) URL ' +
        'without control characters or user-info, kept in its normalised form',
    ),
  read_only: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe('A session that sees everything and changes nothing'),
  ttl_s: z
    .number({ error: TTL })
    .int(TTL)
    .min(30, TTL)
    .max(3600, TTL)
    .optional()
    .describe('How long the link can be used, in seconds (default 300)'),
});

const portalLink = z
  .object({
    url: z.string().describe('Open it once, before expires_at: it signs the visitor in to this account'),
    expires_at: z.string(),
  })
  .meta({ id: 'PortalLink' });

export function portalLinkRoutes(deps: ApiDeps): Route[] {
  const audit = auditRecorder(deps);
  return [
    defineRoute({
      operationId: 'createPortalLink',
      method: 'POST',
      path: '/v1/accounts/{acct}/portal-links',
      summary:
        "A sign-in link into the website for this account, for the operator's own site to hand its " +
        'customer: works once, until it expires',
      tag: 'accounts',
      scope: 'account',
      body: portalLinkBody,
      responses: { 201: { description: 'The link', schema: portalLink } },
    })(async ({ account, body, request }) => {
      const readOnly = body.read_only === true;
      const made = await deps.portalLinks.create(account.id, {
        readOnly,
        ttlSeconds: body.ttl_s ?? 300,
        ...(body.return_url ? { returnUrl: body.return_url } : {}),
      });
      await audit(request, {
        account_id: account.id,
        action: 'portal_link.created',
        detail: { link: made.link, read_only: readOnly, expires_at: made.expiresAt },
      });
      const origin = deps.config.HOOKLINE_PUBLIC_URL ?? `${request.protocol}://${request.host}`;
      return { status: 201, body: { url: `${origin}/portal/${made.token}`, expires_at: made.expiresAt } };
    }),
  ];
}
