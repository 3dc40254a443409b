import { checkSchemaName, pgClient } from '@hookline/history';

/** Drops a schema the bench made for its history, with everything in it. */
export async function dropBenchSchema(url: string, schema: string): Promise<void> {
  const client = pgClient({ url, schema: checkSchemaName(schema), max: 1 });
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.close();
  }
}
