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

const COOKIE_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'Your browser did not keep the sign-in',
  message:
    'Your browser refused the cookie that would keep you signed in here: this site is reached over plain http, ' +
    'and browsers keep that cookie only over https. The link was not used. Please tell your provider.',
};

/** The destinations (Sec-Fetch-Dest) of a page loaded inside another. */
const FRAMED = new Set(['iframe', 'frame', 'embed', 'object']);

const FRAMED_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'This page cannot be shown inside another site',
  message: 'Open the link in its own tab or window. The link was not used. Please tell your provider.',
};

/**
 * The operator's hand-off (product.md §16): GET /portal/<token> uses a sign-in link once and opens a session
 * for its account, marked as a link's session (read-only or not) with the operator's return address.
 *
 * When the site may be framed (HOOKLINE_FRAME_ANCESTORS), the session lives in a partitioned cookie, which a
 * browser keeps only over https or on a loopback host. Reached otherwise, the link is used only once a cookie set
 * the same way has come back: first a check cookie and a redirect to `?checked=1`, then the sign-in. Without
 * the check the visitor would land signed out with the link spent.
 */
export function portalRoutes(app: FastifyInstance, ctx: WebContext): void {
  // Link scanners and unfurlers (mail filters, chat previews) ask with HEAD before anyone clicks: answered
  // without using the link, which must still work for the customer's own GET.
  app.head('/portal/:token', async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(),
  );
  app.get<{ Params: { token: string }; Querystring: { checked?: string } }>(
    '/portal/:token',
    { exposeHeadRoute: false },
    async (request, reply) => {
      // Opened in a frame while no page may frame the website: the browser will not show the answer, so the
      // link is kept for a page that can (the operator's site framing it without HOOKLINE_FRAME_ANCESTORS).
      if (!ctx.embeddable && FRAMED.has(String(request.headers['sec-fetch-dest'] ?? ''))) {
        request.log.warn(
          'a sign-in link was opened in a frame, and HOOKLINE_FRAME_ANCESTORS lets no page frame the website; the link was not used',
        );
        return ctx.page(reply, errorPage(undefined, FRAMED_REFUSED, ctx.brand), 403);
      }
      if (ctx.sessions.linkCookieMayBeDropped(request)) {
        if (request.query.checked !== '1') {
          ctx.sessions.setCookieCheck(reply);
          return reply.redirect(`/portal/${encodeURIComponent(request.params.token)}?checked=1`, 303);
        }
        if (!ctx.sessions.keptCookieCheck(request, reply)) {
          request.log.warn(
            { host: request.headers.host },
            'a sign-in link was opened over plain http, where browsers drop its session cookie (Secure, Partitioned): serve the website over https (HOOKLINE_PUBLIC_URL); the link was not used',
          );
          return ctx.page(reply, errorPage(undefined, COOKIE_REFUSED, ctx.brand), 403);
        }
      }
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
    },
  );
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
