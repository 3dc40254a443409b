import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  failureInWords,
  heldChoiceText,
  HooklineError,
  type DeliveryRecord,
  type HeldChoice,
} from '@hookline/core';
import { hookPage, liveParts } from '../pages/hook-page';
import { loadHookPage } from './hook-page-data';
import { liveAnswer } from './live-answer';
import { pausedByAdmin, plural } from '../view/format';
import { DEFAULT_ZONE, parseLocalTime, timeInWords, zoneOf } from '../view/zone';
import type { Flash } from '../session/session-store';
import type { WebContext } from '../web-context';

type Params = { id: string };

/** A refused re-enable in words: for a failed test, what the endpoint did and where to see the attempt. */
function refusalFlash(error: HooklineError, hookId: string): Flash {
  const attempt = error.extra?.attempt as DeliveryRecord | undefined;
  if (error.code !== 'PROBE_FAILED' || !attempt) return { kind: 'warning', message: `${error.message}.` };
  const status = attempt.status_code;
  // Only an endpoint that answered is told to be fixed: an attempt may fail before reaching it (no OAuth 2.0
  // token, the egress proxy), and failureInWords says so.
  const message =
    status !== undefined
      ? `The endpoint did not accept the test event: it answered ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}. The hook stays suspended and nothing held was sent; fix the endpoint, then try again.`
      : `The test event was not delivered: ${failureInWords(attempt)}. The hook stays suspended and nothing held was sent; try again once that is fixed.`;
  return {
    kind: 'warning',
    message,
    link: { href: `/hooks/${hookId}/deliveries/${attempt.attempt_id}`, text: 'See the test attempt.' },
  };
}

const was = (n: number) => (n === 1 ? 'was' : 'were');
const is = (n: number) => (n === 1 ? 'is' : 'are');

/**
 * What a re-enable did with the held events, in the numbers the choice covered (control.enable's answer):
 * events held since the page loaded included, so the count may be more than the page showed.
 */
function enabledMessage(
  held: HeldChoice,
  { discarded, queued }: { readonly discarded: number; readonly queued: number },
  zone: string,
): string {
  if (discarded + queued === 0) return 'Hook re-enabled. New events are delivered again.';
  const events = (n: number) => plural(n, 'held event');
  if (held === 'deliver')
    return `Hook re-enabled. The ${events(queued)} ${is(queued)} queued for delivery, in order; their outcomes appear in the log below.`;
  if (held === 'discard') return `Hook re-enabled. The ${events(discarded)} ${was(discarded)} discarded.`;
  return (
    `Hook re-enabled. ${events(discarded)} accepted before ${timeInWords(held.since, zone)} ${was(discarded)} ` +
    `discarded; ${events(queued)} accepted since then ${is(queued)} queued for delivery, in order.`
  );
}

export function hookPageRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { hooks } = ctx.deps.store;
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>('/hooks/:id', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
    const input = await loadHookPage(ctx, hook, request.query);
    return ctx.page(reply, hookPage(await ctx.viewer(request, who), input));
  });

  // The page's live parts (state, banner, held events, log, health) for its script. Conditional (ETag): an
  // unchanged hook answers 304 with no body; a change of state reloads the page (its actions change). 401 rather than a redirect, so no sign-in page is pasted in.
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/hooks/:id/live',
    async (request, reply) => {
      const who = await ctx.signedIn(request);
      if (!who) return reply.code(401).type('text/plain; charset=utf-8').send('Signed out');
      const hook = await hooks.get(who.account.id, request.params.id);
      if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
      const input = await loadHookPage(ctx, hook, request.query);
      // Rendered for this visitor as the page was: a read-only session's parts offer no change either.
      const parts = liveParts(input, { csrf: who.session.data.csrf, readOnly: who.readOnly });
      return liveAnswer(request, reply, parts, { 'x-page-shape': hook.state });
    },
  );

  app.post<{ Params: Params }>('/hooks/:id/test', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
    const { id } = await ctx.deps.producer.publishTest(who.account.id, hook.id);
    await ctx.audit(request, who, { action: 'hook.tested', hook_id: hook.id, detail: { event_id: id } });
    await ctx.sessions.flash(
      request,
      hook.state === 'suspended'
        ? {
            kind: 'warning',
            message: 'The test event is held: this hook is suspended. Re-enable it to deliver the event.',
          }
        : { kind: 'success', message: 'Test event sent. Its delivery appears in the log below.' },
    );
    return reply.redirect(`/hooks/${hook.id}`, 303);
  });

  app.post<{ Params: Params }>('/hooks/:id/enable', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
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
    // A choice made on a page that no longer shows the suspension as it is is not carried out: the visitor sees
    // the current state and chooses again. That is a page of another suspension, or one that held nothing and so
    // offered no choice about held events, which are held now. More events held since the page loaded do not
    // make it stale: the choice was about held events, the incident's, and on a busy account more arrive every
    // second (an exact count could never be matched); the answer says how many the choice covered. An admin's
    // pause offers no choice: hook control refuses it below, in words that say who can lift it.
    const seenHeld = /^\d+$/.test(String(form.seen_held)) ? Number(form.seen_held) : undefined;
    const stale =
      hook.state === 'suspended' &&
      !pausedByAdmin(hook) &&
      (form.seen_suspended_at !== (hook.suspended_at ?? '') ||
        seenHeld === undefined ||
        (seenHeld === 0 && waiting > 0));
    if (stale) {
      await ctx.sessions.flash(request, {
        kind: 'warning',
        message: `Nothing was changed: the hook changed since the page was loaded, and ${plural(waiting, 'event')} ${waiting === 1 ? 'is' : 'are'} held now. Choose again.`,
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    let enabled;
    const probe = form.probe === '1';
    const heldText = heldChoiceText(held);
    try {
      enabled = await ctx.deps.control.enable(who.account.id, hook.id, held, who.actor, { probe });
    } catch (error) {
      if (!(error instanceof HooklineError) || (error.code !== 'PROBE_FAILED' && error.code !== 'CONFLICT'))
        throw error;
      if (error.code === 'PROBE_FAILED')
        await ctx.audit(request, who, {
          action: 'hook.probed',
          hook_id: hook.id,
          detail: { held: heldText, passed: false },
        });
      await ctx.sessions.flash(request, refusalFlash(error, hook.id));
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    if (!enabled) return ctx.hookNotFound(request, reply, who, request.params.id);
    // Another re-enable (a second tab, the API) may have come first: this choice then changed nothing.
    if (enabled.changed)
      await ctx.audit(request, who, {
        action: 'hook.enabled',
        hook_id: hook.id,
        detail: probe ? { held: heldText, passed: true } : { held: heldText },
      });
    const message = !enabled.changed
      ? hook.state !== 'suspended'
        ? 'This hook is already active.'
        : 'Nothing was changed: the hook was re-enabled meanwhile, by another choice. Its log below shows what became of the held events.'
      : enabledMessage(held, enabled, zone);
    const overtaken = !enabled.changed && hook.state === 'suspended';
    await ctx.sessions.flash(request, { kind: overtaken ? 'warning' : 'success', message });
    return reply.redirect(`/hooks/${hook.id}`, 303);
  });
}
