/** Where a page ended: the last record's time and id (the sort order, newest first). */
export interface Cursor {
  readonly at: Date;
  readonly attemptId: string;
}

/** Opaque to clients: base64url of `<ISO time>|<attempt id>`. */
export function encodeCursor(at: string, attemptId: string): string {
  return Buffer.from(`${at}|${attemptId}`, 'utf8').toString('base64url');
}

/** Undefined for anything `encodeCursor` did not make. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [at, attemptId, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !attemptId || !/^att_[0-9a-z]{8,40}$/.test(attemptId)) return undefined;
  const time = cursorTime(at);
  return time ? { at: time, attemptId } : undefined;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A cursor's time, only as `toISOString` writes a record's time (four-digit years): anything else Date reads
 * would pass as a position, and a year PostgreSQL cannot hold (-100000) would fail the read, where it is a
 * cursor this API did not give like any other.
 */
export function cursorTime(text: string): Date | undefined {
  if (!ISO_INSTANT.test(text)) return undefined;
  const time = new Date(text);
  return !Number.isNaN(time.getTime()) && time.toISOString() === text ? time : undefined;
}
