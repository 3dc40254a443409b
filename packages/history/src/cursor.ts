import { decodePagePosition, encodePagePosition } from '@hookline/core';

/** Where a page ended: the last record's time and id (the sort order, newest first). */
export interface Cursor {
  readonly at: Date;
  readonly attemptId: string;
}

const ATTEMPT_ID = /^att_[0-9a-z]{8,40}$/;

/** Opaque to clients (core's page-cursor.ts): the record's time and attempt id. */
export function encodeCursor(at: string, attemptId: string): string {
  return encodePagePosition(at, attemptId);
}

/** Undefined for anything `encodeCursor` did not make. */
export function decodeCursor(text: string): Cursor | undefined {
  const position = decodePagePosition(text, ATTEMPT_ID);
  return position && { at: position.at, attemptId: position.id };
}
