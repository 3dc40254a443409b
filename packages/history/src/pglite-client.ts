import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { checkSchemaName, type Sql, type SqlClient } from './sql-client';

/**
 * PostgreSQL compiled to WebAssembly, in this process, its files under `dataDir`: the all-in-one start's
 * database when no DATABASE_URL is given. One connection, so `search_path` is set once for the session.
 */
export async function pgliteClient(options: { dataDir: string; schema: string }): Promise<SqlClient> {
  const schema = checkSchemaName(options.schema);
  mkdirSync(options.dataDir, { recursive: true });
  // Counts and numerics as numbers, as the node-postgres client returns them (see pg-client.ts).
  const db = new PGlite(options.dataDir, {
    parsers: { [types.INT8]: (v: string) => Number(v), [types.NUMERIC]: (v: string) => Number(v) },
  });
  await db.waitReady;
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
  const run = async <R extends object>(
    runner: Pick<PGlite, 'query'>,
    text: string,
    params?: readonly unknown[],
  ): Promise<R[]> => (await runner.query<R>(text, params as unknown[] | undefined)).rows;
  return {
    describe: `embedded PostgreSQL (PGlite) in ${options.dataDir}`,
    query: (text, params) => run(db, text, params),
    transaction: (work) =>
      db.transaction((tx) => work({ query: (text, params) => run(tx, text, params) } as Sql)),
    close: () => db.close(),
  };
}
