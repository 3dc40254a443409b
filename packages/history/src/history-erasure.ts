import type { ErasureTarget } from '@hookline/core';
import type { SqlClient } from './sql-client';

// An erasure's database step: the account's records of the matching events keep their ids, times, outcome,
// status and duration, and lose the rest (the call id, the event's fields, the request's URL, headers and
// body, the response's headers and excerpt and the error text). One statement, repeatable: emptied records match no more.
/** What an erased record loses: its columns set to NULL (the writer's insert uses the same list). */
export const ERASED_COLUMNS = [
  'call_id',
  'event_fields',
  'event_layout',
  'request_method',
  'request_url',
  'request_headers',
  'request_body',
  'response_excerpt',
  'error',
  'response_headers',
  'response_headers_dropped',
] as const;

const EMPTY = `UPDATE attempts SET ${ERASED_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, erased_at = $3`;

// The event's call_id field, as everywhere else an erasure looks (erasure-match.lua); the call_id column only
// for a record without fields (written before they were kept): for a kind without a call_id field that column
// holds its first field, which an erasure by call id does not reach in the queues or outboxes either.
const BY_CALL = `${EMPTY} WHERE account_id = $1 AND erased_at IS NULL
  AND (event_fields->>'call_id' = $2 OR (event_fields IS NULL AND call_id = $2)) RETURNING event_id`;
// $4: the catalogue's personal fields per kind (core's PersonalFields), as JSON: those of the record's kind.
const BY_NUMBER = `${EMPTY} WHERE account_id = $1 AND erased_at IS NULL
  AND (event_fields->>'from' = $2 OR event_fields->>'to' = $2
    OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(($4::jsonb)->event_type) AS personal(name)
      WHERE event_fields->>personal.name = $2)) RETURNING event_id`;

/** Empties the account's records that the erasure reaches; returns the ids of their events (one per record). */
export async function eraseHistory(
  client: SqlClient,
  accountId: string,
  target: ErasureTarget,
  at: Date,
): Promise<string[]> {
  const rows =
    target.kind === 'call_id'
      ? await client.query<{ event_id: string }>(BY_CALL, [accountId, target.value, at.toISOString()])
      : await client.query<{ event_id: string }>(BY_NUMBER, [
          accountId,
          target.value,
          at.toISOString(),
          JSON.stringify(target.personal ?? {}),
        ]);
  return rows.map((row) => row.event_id);
}
