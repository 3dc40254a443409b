import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorPageInput } from './pages/error-page';
import { errorPage } from './pages/error-page';
import type { WebContext } from './web-context';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A page whose whole purpose is a change (a hook's form, the delete confirmation): a read-only session is
     * shown a page that says it can only look, never the form.
     */
    readonly changePage?: boolean;
  }
}

/** The route option of a page that only makes a change. */
export const CHANGE_PAGE = { config: { changePage: true } } as const;

const READ_ONLY_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'You can look, but not change anything here',
  message: 'This view was opened to show your hooks, not to change them, so nothing was changed.',
  action: { href: '/', label: 'Go to your hooks' },
};

const CHANGE_PAGE_REFUSED: ErrorPageInput = {
  status: 403,
  title: 'You can look, but not change anything here',
  message:
    'This view was opened to show your hooks, not to change them, and this page is only for making a change.',
  action: { href: '/', label: 'Go to your hooks' },
};

/**
 * Refuses every changing request of a read-only session (a sign-in link made with read_only), whatever its
 * route, and every page marked CHANGE_PAGE: one guard before every handler, so a route added later is covered
 * without a word here. Signing out is the one change such a session may make.
 */
export async function refuseReadOnly(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  changes: boolean,
): Promise<FastifyReply | undefined> {
  if (request.routeOptions.url === '/logout') return undefined;
  const changePage = request.routeOptions.config.changePage === true;
  if (!changes && !changePage) return undefined;
  const who = await ctx.signedIn(request);
  if (!who?.readOnly) return undefined;
  if (changes) request.log.warn({ url: request.url }, 'refused a change from a read-only session');
  return ctx.page(
    reply,
    errorPage(
      { account: who.account, csrf: who.session.data.csrf, readOnly: true, brand: ctx.brand },
      changes ? READ_ONLY_REFUSED : CHANGE_PAGE_REFUSED,
    ),
    403,
  );
}
