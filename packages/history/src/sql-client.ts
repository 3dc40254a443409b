/**
 * The little of a PostgreSQL client the history needs. Two implementations: node-postgres against a server
 * (production, the test suite) and PGlite in-process (the all-in-one start without DATABASE_URL). Both run
 * the same SQL text: the embedded database is the same schema, not a second implementation.
 */
export interface Sql {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface SqlClient extends Sql {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Which database this is, for banners and logs: a URL with no password, or the embedded data directory. */
  readonly describe: string;
  close(): Promise<void>;
}

/** A schema name is spliced into SQL (search_path): only plain lower-case identifiers are accepted. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema))
    throw new Error(`database schema "${schema}" must be a lower-case identifier (letters, digits, _)`);
  return schema;
}
