import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The real PostgreSQL server of the test machine (trust auth); each test run works in its own schema. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name, so that parallel tests share one database without seeing each other's rows. */
export function uniqueSchema(label = 't'): string {
  return `test_${label}_${randomBytes(5).toString('hex')}`;
}

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string, url = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '')}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Per-test PostgreSQL context: call in a describe block. Each test gets its own schema name (created by
 * whatever opens the history there), dropped afterwards.
 */
export function usePostgres(label?: string) {
  const ctx = { url: TEST_DATABASE_URL, schema: '' };
  beforeEach(() => {
    ctx.schema = uniqueSchema(label);
  });
  afterEach(async () => {
    // Empty when the test never started (a failed beforeAll): there is nothing to drop.
    if (ctx.schema) await dropSchema(ctx.schema);
    ctx.schema = '';
  });
  return ctx;
}
