import type { FastifyInstance } from 'fastify';
import type { AccountView } from '@hookline/store';
import { hooksLiveParts, hooksPage, hooksShape, type HookSummary } from '../pages/hooks-page';
import type { WebContext } from '../web-context';
import { liveAnswer } from './live-answer';

/** Every hook of the account with its last attempt and, when suspended, how many events it holds. */
async function loadHookSummaries(ctx: WebContext, account: AccountView): Promise<HookSummary[]> {
  const list = await ctx.deps.store.hooks.list(account.id);
  return Promise.all(
    list.map(async (hook): Promise<HookSummary> => {
      const [page, held] = await Promise.all([
        ctx.deps.history.listForHook(hook.id, {}, { limit: 1 }),
        hook.state === 'suspended' ? ctx.deps.hookQueues.waitingCount(hook.id) : undefined,
      ]);
      const last = page.data[0];
      return { hook, ...(last ? { lastDelivery: last } : {}), ...(held !== undefined ? { held } : {}) };
    }),
  );
}

export function hooksListRoutes(app: FastifyInstance, ctx: WebContext): void {
  app.get('/', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const summaries = await loadHookSummaries(ctx, who.account);
    return ctx.page(reply, hooksPage(await ctx.viewer(request, who), summaries, ctx.now()));
  });

  // The list's live parts (the suspended summary, each hook's badge, held count and last attempt) for its
  // script, conditional like a hook page's. 401 rather than a redirect, so no sign-in page is pasted in.
  app.get('/hooks/live', async (request, reply) => {
    const who = await ctx.signedIn(request);
    if (!who) return reply.code(401).type('text/plain; charset=utf-8').send('Signed out');
    const summaries = await loadHookSummaries(ctx, who.account);
    return liveAnswer(
      request,
      reply,
      hooksLiveParts(summaries, ctx.now(), {
        csrf: who.session.data.csrf,
        readOnly: who.readOnly,
      }),
      {
        'x-page-shape': hooksShape(summaries),
      },
    );
  });
}
