import type { HookView } from '@hookline/core';
import type { UrlSearch } from './contracts';
import type { StoredHook } from './hook-record';
import type { HookRecordAccess } from './hook-record-access';
import { urlContains, type HookUrlIndex } from './hook-url-index';
import type { HookViews } from './hook-views';

/**
 * The admin area's search by endpoint URL: the index finds, in Redis, the hooks whose URL contains the text in
 * any case; each of those is checked against its record, the one that counts, and shown. What it reads grows
 * with the hooks that match, never with the deployment's hooks.
 */
export async function findHooksByUrl(
  index: HookUrlIndex,
  records: HookRecordAccess,
  views: HookViews,
  text: string,
  limit: number,
): Promise<UrlSearch> {
  const needle = text.trim();
  const complete = await index.built();
  const found: HookView[] = [];
  let more = false;
  let cursor = '0';
  if (needle !== '' && limit > 0)
    do {
      const slice = await index.slice(cursor, needle);
      const stored = await Promise.all(slice.hookIds.map((id) => records.read(id)));
      // An entry whose hook is gone was left by a change that raced the hook's delete.
      await index.remove(...slice.hookIds.filter((_, i) => !stored[i]));
      const matching = stored.filter(
        (hook): hook is StoredHook => hook !== undefined && urlContains(hook.url, needle),
      );
      const room = limit - found.length;
      more = matching.length > room;
      const shown = await Promise.all(
        matching.slice(0, room).map((hook) => views.get(hook.account_id, hook.id)),
      );
      found.push(...shown.filter((view): view is HookView => view !== undefined));
      cursor = slice.next;
    } while (cursor !== '0' && !more);
  found.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return { hooks: found, more, complete };
}
