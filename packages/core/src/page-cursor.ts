// The API's lists page with an opaque cursor that names where a page ended: the last item's time and id, the
// two keys every list sorts by. A position, not an offset: items added or removed between pages shift
// nothing, so a walk never sees an item twice nor skips one that was there all along.

/** Where a page ended: the last item's time and id. */
export interface PagePosition {
  readonly at: Date;
  readonly id: string;
}

/**
 * Opaque to clients: base64url of `<ISO time>|<id>`, and `|<list>` for a list whose ids do not set it apart
 * (held events are named by the publisher's event ids, which may look like any other list's), so that a
 * cursor of one list is never taken as a place in another.
 */
export function encodePagePosition(at: string, id: string, list?: string): string {
  return Buffer.from(list ? `${at}|${id}|${list}` : `${at}|${id}`, 'utf8').toString('base64url');
}

/** Undefined for anything `encodePagePosition` did not make for this list (its id form, and its name if any). */
export function decodePagePosition(text: string, idForm: RegExp, list?: string): PagePosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const named = list ? rest.length === 1 && rest[0] === list : rest.length === 0;
  if (!named || !at || !id || !idForm.test(id)) return undefined;
  const time = cursorTime(at);
  return time ? { at: time, id } : undefined;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A cursor's time, only as `toISOString` writes an item's time (four-digit years): anything else Date reads
 * would pass as a position, and a year PostgreSQL cannot hold (-100000) would fail the read, where it is a
 * cursor this API did not give like any other.
 */
function cursorTime(text: string): Date | undefined {
  if (!ISO_INSTANT.test(text)) return undefined;
  const time = new Date(text);
  return !Number.isNaN(time.getTime()) && time.toISOString() === text ? time : undefined;
}
