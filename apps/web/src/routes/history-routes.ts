import type { FastifyInstance } from 'fastify';
import { decodeCursor } from '@hookline/history';
import {
  ID_PATTERN,
  newId,
  resendableEvent,
  resendRefusal,
  traceOfRecord,
  type AttemptRecord,
} from '@hookline/core';
import { attemptPage, resendRefusedText, type AttemptHook } from '../pages/attempt-page';
import { callIdProblem } from '../pages/log-filters';
import { searchPage } from '../pages/search-page';
import type { WebContext } from '../web-context';

type AttemptParams = { id: string; attemptId: string };
const ATTEMPT_ID = /^att_[0-9a-z]{8,40}$/;
const isHookId = (id: string) => id.startsWith('hk_') && ID_PATTERN.test(id);
const SEARCH_LIMIT = 50;

/** The delivery history on the website: one attempt in full, send again, and the search by call id. */
export function historyRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { hooks } = ctx.deps.store;

  // A deleted hook's records stay in the account's history, and so does their page: the record is read by the
  // account as well as the hook, so an id of another account's hook finds nothing either way.
  const attemptOf = async (
    accountId: string,
    params: AttemptParams,
  ): Promise<{ hook: AttemptHook; record: AttemptRecord } | undefined> => {
    if (!ATTEMPT_ID.test(params.attemptId) || !isHookId(params.id)) return undefined;
    const hook: AttemptHook = (await hooks.get(accountId, params.id)) ?? { id: params.id, deleted: true };
    const record = await ctx.deps.history.attempt(accountId, hook.id, params.attemptId);
    return record && { hook, record };
  };

  app.get<{ Params: AttemptParams }>('/hooks/:id/deliveries/:attemptId', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const found = await attemptOf(who.account.id, request.params);
    if (!found) return ctx.hookNotFound(request, reply, who, request.params.id);
    // The same event's other attempts (its sends again, or the one it repeats), linked both ways.
    const { data } = await ctx.deps.history.listForHook(
      found.hook.id,
      { eventId: found.record.event_id },
      { limit: 20 },
    );
    const others = data.filter((r) => r.attempt_id !== found.record.attempt_id);
    return ctx.page(reply, attemptPage(await ctx.viewer(request, who), found.hook, found.record, others));
  });

  app.post<{ Params: AttemptParams }>('/hooks/:id/deliveries/:attemptId/resend', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const found = await attemptOf(who.account.id, request.params);
    if (!found) return ctx.hookNotFound(request, reply, who, request.params.id);
    const { hook, record } = found;
    if ('deleted' in hook) return ctx.hookNotFound(request, reply, who, hook.id);
    const event = resendRefusal(record) ? undefined : resendableEvent(record);
    if (!event) {
      await ctx.sessions.flash(request, { kind: 'warning', message: resendRefusedText(record) });
      return reply.redirect(`/hooks/${hook.id}/deliveries/${record.attempt_id}`, 303);
    }
    const attemptId = newId('att');
    await ctx.deps.producer.resend(
      who.account.id,
      hook.id,
      event,
      attemptId,
      'manual',
      traceOfRecord(record),
    );
    await ctx.audit(request, who, {
      action: 'hook.resent',
      hook_id: hook.id,
      detail: { attempt_id: record.attempt_id, new_attempt_id: attemptId },
    });
    await ctx.sessions.flash(request, {
      kind: 'success',
      message:
        hook.state === 'suspended'
          ? 'The event is queued again, and held: this hook is suspended.'
          : 'The event is queued again; it arrives after the events queued before it, and its attempt appears in the log below.',
    });
    return reply.redirect(`/hooks/${hook.id}`, 303);
  });

  app.get<{ Querystring: { call_id?: string; cursor?: string } }>('/search', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const callId = (typeof request.query.call_id === 'string' ? request.query.call_id : '').trim();
    const viewer = await ctx.viewer(request, who);
    if (!callId) return ctx.page(reply, searchPage(viewer, { callId: '', lines: [], hooks: new Map() }));
    const problem = callIdProblem(callId);
    if (problem)
      return ctx.page(reply, searchPage(viewer, { callId, lines: [], hooks: new Map(), problem }), 400);
    const cursor = typeof request.query.cursor === 'string' ? decodeCursor(request.query.cursor) : undefined;
    const [page, list] = await Promise.all([
      ctx.deps.history.listForAccount(
        who.account.id,
        { callId },
        { limit: SEARCH_LIMIT, ...(cursor ? { cursor } : {}) },
      ),
      hooks.list(who.account.id),
    ]);
    return ctx.page(
      reply,
      searchPage(viewer, {
        callId,
        lines: page.data,
        hooks: new Map(list.map((hook) => [hook.id, hook])),
        ...(page.next_cursor ? { next: page.next_cursor } : {}),
      }),
    );
  });
}
