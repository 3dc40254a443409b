import {
  isDropped,
  isSuccess,
  PREVIEW_TRACE_CONTEXT,
  deliveryUserAgent,
  type DeliveryRecord,
  type HookView,
} from '@hookline/core';
import { isHistoryUnreachable } from '@hookline/history';
import { HELD_PAGE } from '../pages/held-events';
import type { HookPageInput } from '../pages/hook-page';
import { parseLogQuery } from '../pages/log-filters';
import type { WebContext } from '../web-context';

export const LOG_LIMIT = 50;
const BANNER_FAILURES = 10;

/** The latest unbroken run of failures, oldest first: what the banner shows when the store kept none. */
export function recentFailures(newestFirst: readonly DeliveryRecord[]): DeliveryRecord[] {
  const run: DeliveryRecord[] = [];
  for (const record of newestFirst) {
    if (isSuccess(record.outcome)) break;
    if (!isDropped(record.outcome)) run.push(record);
  }
  return run.slice(0, BANNER_FAILURES).reverse();
}

/** Everything a hook's page shows, for this view of it (filters, log page, held page, health window). */
export async function loadHookPage(
  ctx: WebContext,
  hook: HookView,
  params: Record<string, unknown>,
): Promise<HookPageInput> {
  const { history } = ctx.deps;
  const query = parseLogQuery(params, LOG_LIMIT);
  const week = params.window === '7d';
  const hours = week ? 7 * 24 : 24;
  // The hook itself lives in Redis: while the history's database cannot be read, the page still shows it (and
  // lets the customer change it) and says its log and health cannot be read right now.
  const read = await Promise.all([
    history.listForHook(hook.id, query.filter, query.page),
    history.health(hook.id, hours),
    history.sentNothing(hook.id, hours),
  ]).catch((error: unknown) => {
    if (!isHistoryUnreachable(error)) throw error;
    ctx.deps.logger.warn({ err: error }, 'history database unavailable');
    return undefined;
  });
  const nothing: Awaited<ReturnType<typeof history.listForHook>> = { data: [] };
  const [page, figures, sentNothing] = read ?? [nothing, undefined, undefined];
  const health = figures && sentNothing ? { ...figures, sentNothing } : undefined;
  const deliveries = page.data;
  const heldFrom = Math.min(Math.max(0, Number.parseInt(String(params.held_from ?? '0'), 10) || 0), 1e6);
  let suspension: HookPageInput['suspension'];
  if (hook.state === 'suspended') {
    const recent =
      query.active && read ? (await history.listForHook(hook.id, {}, { limit: LOG_LIMIT })).data : deliveries;
    const [info, held] = await Promise.all([
      ctx.deps.store.hooks.suspension(hook.account_id, hook.id),
      ctx.deps.store.held.page(hook.id, { from: heldFrom }, HELD_PAGE),
    ]);
    const stored = info?.failures ?? [];
    const failures = stored.length > 0 ? stored.slice(-BANNER_FAILURES) : recentFailures(recent);
    suspension = {
      failures,
      // At the cap, older failures of the streak may have been left out: the banner says these are the latest.
      latestOnly: failures.length >= BANNER_FAILURES,
      held: held.total,
      // Only an admin lifts an admin's pause: the page offers the customer no re-enable then.
      byAdmin: info?.by?.startsWith('admin:') === true,
      heldList: { events: held.data, from: held.from, total: held.total },
    };
  }
  return {
    hook,
    deliveries,
    preview: {
      eventTypeHeader: ctx.deps.config.HOOKLINE_EVENT_TYPE_HEADER,
      userAgent: deliveryUserAgent(ctx.deps.config.HOOKLINE_BRAND_NAME),
      ...(ctx.deps.config.HOOKLINE_TRACE_PROPAGATE ? { traceContext: PREVIEW_TRACE_CONTEXT } : {}),
    },
    query,
    ...(health ? { health } : { historyUnreadable: true }),
    rule: {
      failures: ctx.deps.config.HOOKLINE_SUSPEND_AFTER_FAILURES,
      afterMs: ctx.deps.config.HOOKLINE_SUSPEND_AFTER_MS,
    },
    ...(week ? { window: '7d' } : {}),
    ...(page.next_cursor ? { next: page.next_cursor } : {}),
    ...(suspension ? { suspension } : {}),
  };
}
