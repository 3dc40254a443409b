import pg from 'pg';
import { markIfUnreachable } from './database-unreachable';
import { checkSchemaName, type Sql, type SqlClient } from './sql-client';

export interface PgClientOptions {
  readonly url: string;
  readonly schema: string;
  /** Connections in the pool; readers and the writer of one process share it. */
  readonly max?: number;
  readonly applicationName?: string;
}

// node-postgres parses int8 (count(*)) and numeric as strings; the history's counts and durations fit in a
// double, so they come back as numbers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** A pool on a PostgreSQL server, every connection working in `schema`. */
export function pgClient(options: PgClientOptions): SqlClient {
  const schema = checkSchemaName(options.schema);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 8,
    application_name: options.applicationName ?? 'hookline',
    options: `-c search_path=${schema}`,
    types,
    // A server that does not answer must not hold a start or a request for ever.
    connectionTimeoutMillis: 5000,
  });
  // An idle connection dropped by the server is an 'error' on the pool; the next query reconnects.
  pool.on('error', () => undefined);
  const query = async <R extends object>(
    runner: pg.Pool | pg.PoolClient,
    text: string,
    params?: readonly unknown[],
  ) => {
    try {
      return (await runner.query<R>(text, params as unknown[] | undefined)).rows;
    } catch (error) {
      throw markIfUnreachable(error);
    }
  };
  return {
    describe: redactedUrl(options.url),
    query: (text, params) => query(pool, text, params),
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw markIfUnreachable(error);
      });
      const sql: Sql = { query: (text, params) => query(client, text, params) };
      try {
        await client.query('BEGIN');
        const result = await work(sql);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The URL as logs and banners may show it: no password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}
