import { decodeHookCursor, pageOfPlaces, type HookPlace } from './hook-page';

// The order of a hook page and its cursor, without Redis: hooks made in the same millisecond (several HTTP tier
// instances at once) are ordered by id, and a cursor between two of them continues after the right one.

const at = '2026-11-20T09:00:00.000Z';
const later = '2026-11-20T09:00:00.001Z';
const places: HookPlace[] = [
  { id: 'hk_0000000000000000000c', createdAt: later },
  { id: 'hk_0000000000000000000b', createdAt: at },
  { id: 'hk_0000000000000000000a', createdAt: at },
  { id: 'hk_0000000000000000000d', createdAt: later },
];

describe('a page of hooks', () => {
  it('orders by creation time, then id, and continues after the cursor inside a millisecond', () => {
    const first = pageOfPlaces(places, { limit: 3 });
    expect(first.ids).toEqual([
      'hk_0000000000000000000a',
      'hk_0000000000000000000b',
      'hk_0000000000000000000c',
    ]);
    const cursor = decodeHookCursor(first.next_cursor!);
    expect(cursor).toEqual({ at: new Date(later), id: 'hk_0000000000000000000c' });
    expect(pageOfPlaces(places, { limit: 3, cursor })).toEqual({ ids: ['hk_0000000000000000000d'] });
    const between = pageOfPlaces(places, {
      limit: 1,
      cursor: decodeHookCursor(pageOfPlaces(places, { limit: 1 }).next_cursor!),
    });
    expect(between.ids).toEqual(['hk_0000000000000000000b']);
  });
});
