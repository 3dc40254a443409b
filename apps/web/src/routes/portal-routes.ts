import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { usableReturnUrl } from '@hookline/core';
import { errorPage, type ErrorPageInput } from '../pages/error-page';
import type { WebContext } from '../web-context';

const REFUSED: Record<'used' | 'expired' | 'unknown', Omit<ErrorPageInput, 'action'>> = {
  used: {
    status: 410,
    title: 'This sign-in link was already used',
    message: 'Each sign-in link works once. Go back and open the page again to get a new link.',
  },
  expired: {
    status: 410,
    title: 'This sign-in link has expired',
    message:
      'Sign-in links stop working after a while, for your security. Go back and open the page again to get a new link.',
  },
  unknown: {
    status: 404,
    title: 'This sign-in link is not valid',
    message: 'Check that the whole link was copied, or go back and open the page again to get a new link.',
  },
};

/**
 * The operator's hand-off (product.md §16): GET /portal/<token> uses a sign-in link once and opens a session
 * for its account, marked as a link's session (read-only or not) with the operator's return address.
 */
export function portalRoutes(app: FastifyInstance, ctx: WebContext): void {
  app.get<{ Params: { token: string } }>('/portal/:token', async (request, reply) => {
    const use = await ctx.deps.portalLinks.use(request.params.token);
    // The API keeps return addresses in their parsed form; one kept before that was checked and cannot be
    // sent as a Location or an href is left out rather than answered with a 500.
    const returnUrl = use.kind === 'unknown' ? undefined : usableReturnUrl(use.returnUrl);
    if (use.kind !== 'ok') return refused(ctx, request, reply, use.kind, returnUrl);
    const portal = {
      readOnly: use.readOnly,
      link: use.link,
      ...(returnUrl ? { returnUrl } : {}),
    };
    await ctx.sessions.signIn(request, reply, use.accountId, portal);
    const who = await ctx.signedIn(request);
    if (!who) return refused(ctx, request, reply, 'unknown', undefined);
    await ctx.audit(request, who, {
      action: 'portal_link.used',
      detail: { link: use.link, read_only: use.readOnly },
    });
    // The token leaves the address bar at once: it is spent, and must not be kept in history or a Referer.
    return reply.redirect('/', 303);
  });
}

function refused(
  ctx: WebContext,
  _request: FastifyRequest,
  reply: FastifyReply,
  kind: keyof typeof REFUSED,
  returnUrl: string | undefined,
): FastifyReply {
  const page = REFUSED[kind];
  const action = returnUrl ? { href: returnUrl, label: 'Go back' } : undefined;
  return ctx.page(
    reply,
    errorPage(undefined, { ...page, ...(action ? { action } : {}) }, ctx.brand),
    page.status,
  );
}
