import { decodePagePosition, encodePagePosition, type HookView, type PagePosition } from '@hookline/core';

// Paging an account's hooks (GET /v1/accounts/{acct}/hooks). The order is the one the list always had, oldest
// first: by `created_at`, then by id for hooks made in the same millisecond. A cursor is the last hook's place
// in that order (core's page-cursor.ts), not an offset, so hooks deleted between pages shift nothing, and a
// hook created during a walk is placed after every cursor already handed out: the walk reaches it on a later
// page instead of seeing another hook twice. Clients with fewer hooks than the default limit get the whole list
// as before, in the same order.

/** A page of the account's hooks, oldest first; `next_cursor` when there may be more. */
export interface HookPage {
  readonly data: HookView[];
  readonly next_cursor?: string;
}

export interface HookPageRequest {
  readonly limit: number;
  /** Where the previous page ended (decodeHookCursor of its next_cursor). */
  readonly cursor?: PagePosition;
}

/** A hook's place in the order: when it was made (ISO 8601, as stored), then its id. */
export interface HookPlace {
  readonly id: string;
  readonly createdAt: string;
}

const HOOK_ID = /^hk_[0-9a-z]{8,40}$/;

/** Undefined for anything a hook page's next_cursor was not. */
export function decodeHookCursor(text: string): PagePosition | undefined {
  return decodePagePosition(text, HOOK_ID);
}

// ISO 8601 times as toISOString writes them (the stored created_at) compare as text in time order.
const byPlace = (a: HookPlace, b: HookPlace) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The ids of one page, in order, and the cursor of the next when more hooks follow. */
export function pageOfPlaces(
  places: readonly HookPlace[],
  request: HookPageRequest,
): { ids: string[]; next_cursor?: string } {
  const after = request.cursor && { createdAt: request.cursor.at.toISOString(), id: request.cursor.id };
  const rest = places.filter((place) => !after || byPlace(place, after) > 0).sort(byPlace);
  const page = rest.slice(0, request.limit);
  const last = page.at(-1);
  return {
    ids: page.map((place) => place.id),
    ...(rest.length > request.limit && last
      ? { next_cursor: encodePagePosition(last.createdAt, last.id) }
      : {}),
  };
}
