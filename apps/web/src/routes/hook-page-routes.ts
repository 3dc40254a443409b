import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  errorInWords,
  HooklineError,
  isSuccess,
  USER_AGENT,
  type DeliveryRecord,
  type HookView,
} from '@hookline/core';
import { deliveryLog as deliveryLogMarkup } from '../pages/delivery-log';
import { parseLogQuery } from '../pages/log-filters';
import { hookPage } from '../pages/hook-page';
import { HELD_PAGE, heldEventOf } from '../pages/held-events';
import { plural } from '../view/format';
import { DEFAULT_ZONE, parseLocalTime, timeInWords, zoneOf } from '../view/zone';
import type { Flash } from '../session/session-store';
import type { WebContext } from '../web-context';

type Params = { id: string };
const LOG_LIMIT = 50;
const BANNER_FAILURES = 10;

/** The latest unbroken run of failures, oldest first: what the banner shows when the store kept none. */
export function recentFailures(newestFirst: readonly DeliveryRecord[]): DeliveryRecord[] {
  const run: DeliveryRecord[] = [];
  for (const record of newestFirst) {
    if (isSuccess(record.outcome)) break;
    if (record.outcome !== 'discarded' && record.outcome !== 'expired') run.push(record);
  }
  return run.slice(0, BANNER_FAILURES).reverse();
}

/** A refused re-enable in words: for a failed test, what the endpoint did and where to see the attempt. */
function refusalFlash(error: HooklineError, hookId: string): Flash {
  const attempt = error.extra?.attempt as DeliveryRecord | undefined;
  if (error.code !== 'PROBE_FAILED' || !attempt) return { kind: 'warning', message: `${error.message}.` };
  const status = attempt.status_code;
  const what =
    status !== undefined
      ? `it answered ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}`
      : attempt.error
        ? (errorInWords(attempt.error) ?? 'the request failed')
        : 'the request failed';
  return {
    kind: 'warning',
    message: `The endpoint did not accept the test event: ${what}. The hook stays suspended and nothing held was sent; fix the endpoint, then try again.`,
    link: { href: `/hooks/${hookId}/deliveries/${attempt.attempt_id}`, text: 'See the test attempt.' },
  };
}

export function hookPageRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { hooks } = ctx.deps.store;
  const latest = async (hookId: string) =>
    (await ctx.deps.history.listForHook(hookId, {}, { limit: LOG_LIMIT })).data;

  const suspensionOf = async (hook: HookView, deliveries: readonly DeliveryRecord[], heldFrom: number) => {
    if (hook.state !== 'suspended') return undefined;
    const [info, held, page] = await Promise.all([
      hooks.suspension(hook.account_id, hook.id),
      ctx.deps.hookQueues.waitingCount(hook.id),
      ctx.deps.hookQueues.waitingData(hook.id, heldFrom, HELD_PAGE),
    ]);
    const stored = info?.failures ?? [];
    const failures = stored.length > 0 ? stored.slice(-BANNER_FAILURES) : recentFailures(deliveries);
    const heldList = { events: page.map(heldEventOf), from: heldFrom, total: held };
    return { failures, held, heldList };
  };

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>('/hooks/:id', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.notFound(request, reply);
    const query = parseLogQuery(request.query, LOG_LIMIT);
    const hours = request.query.window === '7d' ? 7 * 24 : 24;
    const [page, health] = await Promise.all([
      ctx.deps.history.listForHook(hook.id, query.filter, query.page),
      ctx.deps.history.health(hook.id, hours),
    ]);
    const deliveries = page.data;
    const heldFrom = Math.min(
      Math.max(0, Number.parseInt(String(request.query.held_from ?? '0'), 10) || 0),
      1e6,
    );
    const suspension = await suspensionOf(hook, query.active ? await latest(hook.id) : deliveries, heldFrom);
    const preview = {
      eventTypeHeader: ctx.deps.config.HOOKLINE_EVENT_TYPE_HEADER,
      userAgent: USER_AGENT,
    };
    const viewer = await ctx.viewer(request, who);
    return ctx.page(
      reply,
      hookPage(viewer, {
        hook,
        deliveries,
        preview,
        query,
        health,
        ...(page.next_cursor ? { next: page.next_cursor } : {}),
        ...(suspension ? { suspension } : {}),
      }),
    );
  });

  // The log's markup alone, for the page's auto-refresh. Answers 401 rather than redirecting, so the script
  // never pastes a sign-in page into the table. X-Hook-State lets the page reload when the state changes.
  app.get<{ Params: Params }>('/hooks/:id/deliveries', async (request, reply) => {
    const who = await ctx.signedIn(request);
    if (!who) return reply.code(401).type('text/plain; charset=utf-8').send('Signed out');
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.notFound(request, reply);
    const deliveries = await latest(hook.id);
    void reply.header('x-hook-state', hook.state);
    return ctx.page(reply, deliveryLogMarkup(deliveries, hook.id));
  });

  app.post<{ Params: Params }>('/hooks/:id/test', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.notFound(request, reply);
    const { id } = await ctx.deps.producer.publishTest(who.account.id, hook.id);
    await ctx.sessions.flash(
      request,
      hook.state === 'suspended'
        ? {
            kind: 'warning',
            message: `Test event ${id} is held: this hook is suspended. Re-enable it to deliver the event.`,
          }
        : { kind: 'success', message: `Test event ${id} sent. Its delivery appears in the log below.` },
    );
    return reply.redirect(`/hooks/${hook.id}`, 303);
  });

  app.post<{ Params: Params }>('/hooks/:id/enable', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.notFound(request, reply);
    const form = request.body as Record<string, unknown>;
    // Read in the zone the page showed it in (the form says which).
    const zone = zoneOf(form.tz) ?? DEFAULT_ZONE;
    const since = form.held === 'since' ? parseLocalTime(form.since, zone) : undefined;
    if (form.held === 'since' && !since) {
      await ctx.sessions.flash(request, {
        kind: 'warning',
        message: 'Nothing was changed: choose the date and time from which held events are delivered.',
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    const held = since ? { since } : form.held === 'discard' ? 'discard' : 'deliver';
    const waiting = await ctx.deps.hookQueues.waitingCount(hook.id);
    // A choice made on a page that no longer shows the hook as it is (suspended again since, or events held
    // since it loaded) is not carried out: the visitor sees the current state and chooses again.
    const stale =
      hook.state === 'suspended' &&
      (form.seen_suspended_at !== (hook.suspended_at ?? '') || form.seen_held !== String(waiting));
    if (stale) {
      await ctx.sessions.flash(request, {
        kind: 'warning',
        message: `Nothing was changed: the hook changed since the page was loaded, and ${plural(waiting, 'event')} ${waiting === 1 ? 'is' : 'are'} held now. Choose again.`,
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    let enabled;
    try {
      enabled = await ctx.deps.control.enable(who.account.id, hook.id, held, who.actor, {
        probe: form.probe === '1',
      });
    } catch (error) {
      if (!(error instanceof HooklineError) || (error.code !== 'PROBE_FAILED' && error.code !== 'CONFLICT'))
        throw error;
      await ctx.sessions.flash(request, refusalFlash(error, hook.id));
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    if (!enabled) return ctx.notFound(request, reply);
    const events = plural(waiting, 'held event');
    const message =
      hook.state !== 'suspended'
        ? 'This hook is already active.'
        : waiting === 0
          ? 'Hook re-enabled. New events are delivered again.'
          : held === 'deliver'
            ? `Hook re-enabled. The ${events} ${waiting === 1 ? 'is' : 'are'} queued for delivery, in order; their outcomes appear in the log below.`
            : held === 'discard'
              ? `Hook re-enabled. The ${events} ${waiting === 1 ? 'was' : 'were'} discarded.`
              : `Hook re-enabled. Held events accepted before ${timeInWords(since!, zone)} were discarded; the others are queued for delivery, in order.`;
    await ctx.sessions.flash(request, { kind: 'success', message });
    return reply.redirect(`/hooks/${hook.id}`, 303);
  });
}
