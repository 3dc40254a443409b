import type { Sql, SqlClient } from './sql-client';

// The history's schema, as numbered steps applied once each, in order. Every process that opens the history
// runs `migrate` at start; an advisory lock makes concurrent starts wait for one another, so a fleet starting
// together applies each step exactly once. Steps are never edited once released: a change is a new step.
//
// `attempts` is partitioned by day on attempted_at (partitions.ts creates and drops them): retention drops
// whole partitions, never deletes rows. Its key includes the partition column, as PostgreSQL requires; an
// attempt's time never changes, so (attempt_id, attempted_at) is as unique as attempt_id, and a record
// written twice (a writer killed between the insert and the outbox trim) is a conflict that changes nothing.
const STEPS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE attempts (
      attempt_id text COLLATE "C" NOT NULL,
      attempted_at timestamptz NOT NULL,
      account_id text NOT NULL,
      hook_id text NOT NULL,
      event_id text NOT NULL,
      event_type text NOT NULL,
      call_id text,
      trigger text NOT NULL,
      outcome text NOT NULL,
      status_code integer,
      duration_ms integer NOT NULL,
      error text,
      response_excerpt text,
      request_method text,
      request_url text,
      request_headers jsonb,
      request_body text,
      PRIMARY KEY (attempt_id, attempted_at)
    ) PARTITION BY RANGE (attempted_at)`,
    // A hook's log, newest first, its filters and its health.
    `CREATE INDEX attempts_by_hook ON attempts (hook_id, attempted_at DESC, attempt_id DESC)`,
    // "Did call X's event reach my endpoints?" across an account; and by event id.
    `CREATE INDEX attempts_by_call ON attempts (account_id, call_id, attempted_at DESC)`,
    `CREATE INDEX attempts_by_event ON attempts (account_id, event_id, attempted_at DESC)`,
  ],
  // The event's fields and, for a catalogue kind, its wire layout: an attempt can be sent again as the same
  // event whatever the catalogue says by then (json keeps the fields' order).
  [`ALTER TABLE attempts ADD COLUMN event_fields json`, `ALTER TABLE attempts ADD COLUMN event_layout json`],
  // The attempt's W3C trace and span (product.md §19): the attempt page names the trace to look up.
  [`ALTER TABLE attempts ADD COLUMN trace_id text`, `ALTER TABLE attempts ADD COLUMN span_id text`],
  // When an erasure of personal data emptied the record (history-erasure.ts): it stays as a stub.
  [`ALTER TABLE attempts ADD COLUMN erased_at timestamptz`],
  // The audit log (product.md §16), day-partitioned on `at` and dropped whole past retention like attempts.
  // An entry written twice (a writer killed between the insert and the outbox trim) is a conflict.
  [
    `CREATE TABLE audit_entries (
      id text COLLATE "C" NOT NULL,
      at timestamptz NOT NULL,
      account_id text NOT NULL,
      action text NOT NULL,
      hook_id text,
      actor jsonb NOT NULL,
      address text,
      detail jsonb NOT NULL,
      PRIMARY KEY (id, at)
    ) PARTITION BY RANGE (at)`,
    `CREATE INDEX audit_by_account ON audit_entries (account_id, at DESC, id DESC)`,
  ],
  // The subject of the client certificate an attempt presented (mutual TLS), kept with its request.
  [`ALTER TABLE attempts ADD COLUMN request_client_certificate text`],
  // The endpoint's response headers (product.md §10), bounded as core's response-headers.ts says: pairs, so
  // their order survives jsonb; and how many past the bounds were not kept.
  [
    `ALTER TABLE attempts ADD COLUMN response_headers jsonb`,
    `ALTER TABLE attempts ADD COLUMN response_headers_dropped integer`,
  ],
  // The account's whole log, newest first, paged by (attempted_at, attempt_id): read in order from each day's
  // index, newest day first, stopping at the page's end, where the call and event indexes would read all of
  // the account's records and sort them. It is built on every existing day at once, the first start after an
  // upgrade, in a time that grows with the history kept; the writer's inserts wait meanwhile (the records wait
  // in the hooks' outboxes, and the hooks' logs still show them).
  [`CREATE INDEX attempts_by_account ON attempts (account_id, attempted_at DESC, attempt_id DESC)`],
];

/** Any fixed number: the lock only has to be the same one in every hookline process on this database. */
export const MIGRATION_LOCK = 7_401_316_001;

/** Creates the schema (in the client's search_path schema) or brings it up to date. Idempotent. */
export async function migrate(client: SqlClient, schema: string): Promise<{ applied: number[] }> {
  return client.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await sql.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await sql.query(`SET LOCAL search_path TO ${schema}`);
    await sql.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await sql.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    const applied: number[] = [];
    for (const [index, statements] of STEPS.entries()) {
      const version = index + 1;
      if (done.has(version)) continue;
      await apply(sql, statements);
      await sql.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
    }
    return { applied };
  });
}

async function apply(sql: Sql, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.query(statement);
}

/** The newest schema version this code knows, for readiness checks. */
export const SCHEMA_VERSION = STEPS.length;
