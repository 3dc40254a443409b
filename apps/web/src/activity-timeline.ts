import { createHash } from 'node:crypto';
import { decodePagePosition, encodePagePosition, type AuditEntry, type PagePosition } from '@hookline/core';
import type { ActivityEntry, ActivityKind } from '@hookline/store';

// The Activity page is one timeline from two records: people's changes (the audit log, in PostgreSQL, paged by
// time and id) and what hookline did by itself (the monitor's entries in the account's activity feed, a capped
// Redis list without ids). Both are merged newest first and paged by one position, so a suspension sits between
// the change before it and the re-enable after it on whichever page that falls.

/** The feed's kinds that hookline writes by itself, and only when the monitor wrote them. */
export const AUTOMATIC_KINDS: ReadonlySet<ActivityKind> = new Set([
  'hook.failing',
  'hook.suspended',
  'hook.stuck',
  'hook.enabled',
]);

export type TimelineItem =
  | { readonly source: 'change'; readonly id: string; readonly at: string; readonly entry: AuditEntry }
  | { readonly source: 'automatic'; readonly id: string; readonly at: string; readonly entry: ActivityEntry };

export interface TimelinePage {
  readonly items: readonly TimelineItem[];
  readonly next?: string;
}

const LIST = 'activity';
/** Audit ids, or a feed entry's stand-in: `aud_` sorts before `auto_` in JavaScript and in PostgreSQL alike. */
const ITEM_ID = /^(aud_[0-9a-z]{25}|auto_[0-9a-f]{16})$/;

/**
 * Only what hookline did itself: an admin's pause or a person's change also writes the feed, and the audit log
 * already says those with the person's name and address. An erasure's end is in the audit log too.
 */
export function isAutomatic(entry: ActivityEntry): boolean {
  return entry.actor === 'monitor' && AUTOMATIC_KINDS.has(entry.kind);
}

/** A feed entry has no id: its content names it, the same on every read (two identical entries are one). */
function feedId(entry: ActivityEntry): string {
  return `auto_${createHash('sha256').update(JSON.stringify(entry)).digest('hex').slice(0, 16)}`;
}

const newestFirst = (a: TimelineItem, b: TimelineItem) =>
  Date.parse(b.at) - Date.parse(a.at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (item: TimelineItem, c: PagePosition) => {
  const at = Date.parse(item.at);
  return at < c.at.getTime() || (at === c.at.getTime() && item.id < c.id);
};

export function encodeTimelineCursor(item: Pick<TimelineItem, 'at' | 'id'>): string {
  return encodePagePosition(item.at, item.id, LIST);
}

/** Undefined for anything this page did not make (the first page is shown instead). */
export function decodeTimelineCursor(text: string): PagePosition | undefined {
  return decodePagePosition(text, ITEM_ID, LIST);
}

/**
 * One page of the timeline. `changes`: the audit log's first `limit` entries after `cursor` (and whether there
 * are more); `feed`: the account's activity feed as kept. Any change not read is older than every change read,
 * so the first `limit` of the merge are the timeline's.
 */
export function timelinePage(
  changes: { readonly data: readonly AuditEntry[]; readonly more: boolean },
  feed: readonly ActivityEntry[],
  limit: number,
  cursor?: PagePosition,
): TimelinePage {
  const automatic = feed
    .filter(isAutomatic)
    .map((entry): TimelineItem => ({ source: 'automatic', id: feedId(entry), at: entry.at, entry }))
    .filter((item) => !cursor || before(item, cursor));
  const all = [
    ...changes.data.map((entry): TimelineItem => ({ source: 'change', id: entry.id, at: entry.at, entry })),
    ...automatic,
  ].sort(newestFirst);
  const items = all.slice(0, limit);
  const last = items.at(-1);
  const more = all.length > limit || changes.more;
  return { items, ...(more && last ? { next: encodeTimelineCursor(last) } : {}) };
}
