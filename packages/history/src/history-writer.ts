import type { AttemptRecord } from '@hookline/core';
import { ERASED_COLUMNS } from './history-erasure';
import { dayOf, Partitions } from './partitions';
import { toRowJson } from './rows';
import type { SqlClient } from './sql-client';

// One statement per batch: the records travel as one JSON array parameter, which both node-postgres and
// PGlite send as is, and json_to_recordset turns into rows. A record already written (same attempt id and
// time) is skipped, which is what makes replaying an outbox after a crash harmless — except that an erased
// record (an erasure emptied it in the outbox) empties the row written before it: a writer that read the full
// record, was overtaken by the erasure and inserted it afterwards reads the emptied one next (its trim was
// refused) and so never leaves a full row behind, however late its insert came.
const INSERT = `
INSERT INTO attempts (attempt_id, attempted_at, account_id, hook_id, event_id, event_type, call_id, trigger,
  outcome, status_code, duration_ms, error, response_excerpt, request_method, request_url, request_headers,
  request_body, event_fields, event_layout, trace_id, span_id, erased_at,
  request_client_certificate, response_headers, response_headers_dropped)
SELECT * FROM json_to_recordset($1::json) AS r(attempt_id text, attempted_at timestamptz, account_id text,
  hook_id text, event_id text, event_type text, call_id text, trigger text, outcome text, status_code integer,
  duration_ms integer, error text, response_excerpt text, request_method text, request_url text,
  request_headers jsonb, request_body text, event_fields json, event_layout json, trace_id text, span_id text,
  erased_at timestamptz, request_client_certificate text, response_headers jsonb,
  response_headers_dropped integer)
ON CONFLICT (attempt_id, attempted_at) DO UPDATE SET
  ${ERASED_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, erased_at = EXCLUDED.erased_at
  WHERE EXCLUDED.erased_at IS NOT NULL AND attempts.erased_at IS NULL`;

/** Rows per statement: large enough to amortise the round trip, small enough to keep one statement short. */
export const INSERT_BATCH = 1000;

/** Writes attempt records to the history, idempotently, creating the day partitions they need. */
export class HistoryWriter {
  private readonly partitions: Partitions;

  constructor(private readonly client: SqlClient) {
    this.partitions = new Partitions(client);
  }

  /** Writes the records (any number); resolves once every one is in the database. */
  async write(records: readonly AttemptRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.partitions.ensure(records.map((r) => dayOf(Date.parse(r.attempted_at))));
    for (let i = 0; i < records.length; i += INSERT_BATCH) {
      const slice = records.slice(i, i + INSERT_BATCH);
      await this.client.query(INSERT, [JSON.stringify(slice.map(toRowJson))]);
    }
  }
}
