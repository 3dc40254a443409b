import type { FastifyInstance } from 'fastify';
import { HooklineError, type AuditEntry } from '@hookline/core';
import { isHistoryUnreachable, type AuditCursor } from '@hookline/history';
import { DEFAULT_ACTIVITY_MAX, PASSWORD_MIN } from '@hookline/store';
import { decodeTimelineCursor, timelinePage } from '../activity-timeline';
import { accountPage, type PasswordErrors } from '../pages/account-page';
import { activityPage } from '../pages/activity-page';
import type { WebContext } from '../web-context';

/** Entries per page of the Activity page (people's changes and what hookline did, together). */
const PAGE = 50;
type Form = Readonly<Record<string, unknown>>;
const field = (body: unknown, name: string) => {
  const value = (body as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * A page of people's changes. While the audit log's database cannot be read, the entries still waiting in
 * Redis are all there is to show: the page says the rest cannot be read right now rather than failing whole.
 */
async function readChanges(
  ctx: WebContext,
  accountId: string,
  page: { limit: number; cursor?: AuditCursor },
): Promise<{ data: AuditEntry[]; more: boolean; unreadable: boolean }> {
  try {
    const changes = await ctx.deps.audit.list(accountId, page);
    return { data: changes.data, more: !!changes.next_cursor, unreadable: false };
  } catch (error) {
    if (!isHistoryUnreachable(error)) throw error;
    ctx.deps.logger.warn({ err: error }, 'history database unavailable');
    return { data: await ctx.deps.audit.waiting(accountId, page), more: false, unreadable: true };
  }
}

export function accountRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { activity, hooks, accounts } = ctx.deps.store;

  app.get('/activity', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const query = request.query as Form;
    const cursor = typeof query.cursor === 'string' ? decodeTimelineCursor(query.cursor) : undefined;
    // The whole feed as kept (it is capped): its automatic entries are merged into every page, not the first.
    const [changes, feed, list] = await Promise.all([
      readChanges(ctx, who.account.id, { limit: PAGE, ...(cursor ? { cursor } : {}) }),
      activity.list(who.account.id, DEFAULT_ACTIVITY_MAX),
      hooks.list(who.account.id),
    ]);
    const byId = new Map(list.map((hook) => [hook.id, hook]));
    const page = timelinePage(changes, feed, PAGE, cursor);
    return ctx.page(
      reply,
      activityPage(await ctx.viewer(request, who), page, byId, { logUnreadable: changes.unreadable }),
    );
  });

  app.get('/account', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hasPassword = await accounts.hasPassword(who.account.id);
    return ctx.page(reply, accountPage(await ctx.viewer(request, who), {}, PASSWORD_MIN, hasPassword));
  });

  app.post('/account/password', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const current = field(request.body, 'current_password');
    const next = field(request.body, 'new_password');
    const confirm = field(request.body, 'confirm_password');
    const again = async (errors: PasswordErrors, status: number) =>
      ctx.page(reply, accountPage(await ctx.viewer(request, who), errors, PASSWORD_MIN), status);
    // No password to change (the page offers none): said plainly, and no guess counted against the limits.
    if (!(await accounts.hasPassword(who.account.id))) {
      await ctx.sessions.flash(request, {
        kind: 'warning',
        message: "This account has no password: you open it from your provider's site.",
      });
      return reply.redirect('/account', 303);
    }

    const errors: PasswordErrors = {};
    if (!current) errors.current_password = 'Enter your current password.';
    if (next.length < PASSWORD_MIN) errors.new_password = `Use at least ${PASSWORD_MIN} characters.`;
    else if (next !== confirm) errors.confirm_password = 'The two new passwords do not match.';
    if (Object.keys(errors).length > 0) return again(errors, 400);

    // Guessing the current password from a stolen session counts against the same sign-in limit.
    const email = who.account.email ?? who.account.id;
    const gate = await ctx.limiter.attempt(email, request.ip);
    if (!gate.allowed)
      return again({ current_password: 'Too many wrong passwords. Try again in a few minutes.' }, 429);
    let changed: boolean;
    try {
      changed = await accounts.changePassword(who.account.id, current, next);
    } catch (error) {
      if (error instanceof HooklineError && error.code === 'VALIDATION_FAILED')
        return again({ new_password: `New password ${error.details?.[0]?.message ?? 'is not valid'}.` }, 400);
      throw error;
    }
    if (!changed) return again({ current_password: 'The current password is not correct.' }, 400);
    await gate.succeeded();
    await ctx.audit(request, who, { action: 'account.password_changed', detail: {} });
    // Every session of the account ends (a stolen cookie elsewhere included); this visitor gets a new one.
    await ctx.sessions.endAllFor(who.account.id);
    await ctx.sessions.signIn(request, reply, who.account.id);
    await ctx.sessions.flash(request, { kind: 'success', message: 'Password changed.' });
    return reply.redirect('/account', 303);
  });
}
