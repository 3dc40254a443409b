import { usePostgres } from '@hookline/testing';
import { pgClient } from '../src/pg-client';
import type { SqlClient } from '../src/sql-client';
import { historyContract } from './database-contract';

describe('history on the PostgreSQL server', () => {
  const pgCtx = usePostgres('history');
  let client: SqlClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  historyContract(async () => {
    client = pgClient({ url: pgCtx.url, schema: pgCtx.schema });
    return { client, schema: pgCtx.schema };
  });
});
