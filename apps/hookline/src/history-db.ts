import { join } from 'node:path';
import type { Config } from '@hookline/config';
import { openHistory, type HistoryStore } from '@hookline/history';

/**
 * The history database of this process: the PostgreSQL server at DATABASE_URL, or, for the all-in-one start
 * without it, PGlite (the same schema, in-process) under the data directory. Production entry points require
 * DATABASE_URL (loadConfig refuses to start them without it).
 */
export function openHistoryFor(
  config: Pick<Config, 'DATABASE_URL' | 'HOOKLINE_DATABASE_SCHEMA'>,
  dataDir?: string,
): Promise<HistoryStore> {
  const schema = config.HOOKLINE_DATABASE_SCHEMA;
  if (config.DATABASE_URL) return openHistory({ kind: 'server', url: config.DATABASE_URL, schema });
  if (!dataDir) throw new Error('DATABASE_URL is required for this process');
  return openHistory({ kind: 'embedded', dataDir: join(dataDir, 'pglite'), schema });
}
