import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorPageInput } from './pages/error-page';
import { errorPage } from './pages/error-page';
import type { WebContext } from './web-context';

const READ_ONLY_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'You can look, but not change anything here',
  message: 'This view was opened to show your hooks, not to change them, so nothing was changed.',
  action: { href: '/', label: 'Go to your hooks' },
};

/**
 * Refuses every changing request of a read-only session (a sign-in link made with read_only), whatever its
 * route: one guard before every handler, so a route added later is covered without a word here. Signing out
 * is the one change such a session may make.
 */
export async function refuseReadOnly(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (request.routeOptions.url === '/logout') return undefined;
  const who = await ctx.signedIn(request);
  if (!who?.readOnly) return undefined;
  request.log.warn({ url: request.url }, 'refused a change from a read-only session');
  return ctx.page(
    reply,
    errorPage(
      { account: who.account, csrf: who.session.data.csrf, readOnly: true, brand: ctx.brand },
      READ_ONLY_REFUSED,
    ),
    403,
  );
}
