import { HistoryWriter } from './history-writer';
import { migrate } from './schema';
import { Partitions } from './partitions';
import { pgClient } from './pg-client';
import { pgliteClient } from './pglite-client';
import type { SqlClient } from './sql-client';

export type HistoryDatabase =
  /** A PostgreSQL server (DATABASE_URL). */
  | { readonly kind: 'server'; readonly url: string; readonly schema: string; readonly poolSize?: number }
  /** PGlite in this process, its files in `dataDir`: the all-in-one start without DATABASE_URL. */
  | { readonly kind: 'embedded'; readonly dataDir: string; readonly schema: string };

export interface HistoryStore {
  readonly client: SqlClient;
  readonly writer: HistoryWriter;
  readonly partitions: Partitions;
  close(): Promise<void>;
}

/** Connects, brings the schema up to date (safe with several processes starting at once), and is ready. */
export async function openHistory(db: HistoryDatabase): Promise<HistoryStore> {
  const client =
    db.kind === 'server'
      ? pgClient({ url: db.url, schema: db.schema, ...(db.poolSize ? { max: db.poolSize } : {}) })
      : await pgliteClient({ dataDir: db.dataDir, schema: db.schema });
  try {
    await migrate(client, db.schema);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return {
    client,
    writer: new HistoryWriter(client),
    partitions: new Partitions(client),
    close: () => client.close(),
  };
}

/** Whether the database answers a trivial query within `ms` (readiness, and the monitor's gauge). */
export async function historyAnswers(
  client: Pick<SqlClient, 'query'>,
  ms: number,
): Promise<{ ok: true; ms: number } | { ok: false; reason: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    const answer = await Promise.race([client.query('SELECT 1'), timeout]);
    if (answer === 'timeout') return { ok: false, reason: `no answer within ${ms} ms` };
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
