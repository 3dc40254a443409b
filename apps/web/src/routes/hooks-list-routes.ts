import type { FastifyInstance } from 'fastify';
import { isHistoryUnreachable } from '@hookline/history';
import type { AccountView } from '@hookline/store';
import { hooksLiveParts, hooksPage, hooksShape, type HookSummary } from '../pages/hooks-page';
import type { WebContext } from '../web-context';
import { liveAnswer } from './live-answer';

/**
 * Every hook of the account with its last attempt and, when suspended, how many events it holds. The hooks
 * live in Redis and the last attempts in the history's database: while that cannot be read, the list still
 * shows the hooks (customers reach them during an incident) and says their last delivery cannot be read.
 */
async function loadHookSummaries(ctx: WebContext, account: AccountView): Promise<HookSummary[]> {
  const list = await ctx.deps.store.hooks.list(account.id);
  let warned = false;
  const lastOf = async (hookId: string): Promise<Pick<HookSummary, 'lastDelivery' | 'historyUnreadable'>> => {
    try {
      const last = (await ctx.deps.history.listForHook(hookId, {}, { limit: 1 })).data[0];
      return last ? { lastDelivery: last } : {};
    } catch (error) {
      if (!isHistoryUnreachable(error)) throw error;
      if (!warned) ctx.deps.logger.warn({ err: error }, 'history database unavailable');
      warned = true;
      return { historyUnreadable: true };
    }
  };
  return Promise.all(
    list.map(async (hook): Promise<HookSummary> => {
      const [last, held] = await Promise.all([
        lastOf(hook.id),
        hook.state === 'suspended' ? ctx.deps.hookQueues.waitingCount(hook.id) : undefined,
      ]);
      return { hook, ...last, ...(held !== undefined ? { held } : {}) };
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
