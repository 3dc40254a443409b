import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgliteClient } from '../src/pglite-client';
import type { SqlClient } from '../src/sql-client';
import { historyContract } from './database-contract';

// PGlite takes seconds to create a database: one per file, its schema emptied before each test.
describe('history on embedded PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-pglite-'));
  const schema = 'hookline';
  let client: SqlClient | undefined;
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  historyContract(async () => {
    client ??= await pgliteClient({ dataDir: dir, schema });
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
    return { client, schema };
  });
});
