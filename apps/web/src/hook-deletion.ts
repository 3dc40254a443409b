import { ID_PATTERN } from '@hookline/core';
import { DEFAULT_ACTIVITY_MAX } from '@hookline/store';
import type { WebDeps } from './deps';
import type { HookDeletion } from './pages/hook-gone-page';

/**
 * Whether a hook this account cannot find was one of its hooks, deleted: the account's activity feed names the
 * deletion (when, by whom) while it holds it; after that, records of the hook in the account's history still
 * tell it existed. Undefined for an id the account never had (another account's hook included): a plain 404.
 */
export async function hookDeletion(
  deps: Pick<WebDeps, 'store' | 'history'>,
  accountId: string,
  hookId: string,
): Promise<HookDeletion | undefined> {
  if (!hookId.startsWith('hk_') || !ID_PATTERN.test(hookId)) return undefined;
  // A page of the hook may miss for another reason (an attempt id it never had): the hook is there.
  if (await deps.store.hooks.get(accountId, hookId)) return undefined;
  const feed = await deps.store.activity.list(accountId, DEFAULT_ACTIVITY_MAX);
  const entry = feed.find((e) => e.kind === 'hook.deleted' && e.hook_id === hookId);
  if (entry) return { at: entry.at, actor: entry.actor };
  // The hook's log is not read by account: its newest record is checked to be this account's.
  const [line] = (await deps.history.listForHook(hookId, {}, { limit: 1 })).data;
  const own = line && (await deps.history.attempt(accountId, hookId, line.attempt_id));
  return own ? {} : undefined;
}
