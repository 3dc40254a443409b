import { join } from 'node:path';
import type { Config } from '@hookline/config';
import { openHistory, redactedUrl, type HistoryStore } from '@hookline/history';

/**
 * The history database of this process: the PostgreSQL server at DATABASE_URL, or, for the all-in-one start
 * without it, PGlite (the same schema, in-process) under the data directory. Production entry points require
 * DATABASE_URL (loadConfig refuses to start them without it).
 */
export async function openHistoryFor(
  config: Pick<Config, 'DATABASE_URL' | 'HOOKLINE_DATABASE_SCHEMA'>,
  dataDir?: string,
): Promise<HistoryStore> {
  const schema = config.HOOKLINE_DATABASE_SCHEMA;
  if (config.DATABASE_URL) {
    try {
      return await openHistory({ kind: 'server', url: config.DATABASE_URL, schema });
    } catch (error) {
      throw new Error(databaseProblem(config.DATABASE_URL, error));
    }
  }
  if (!dataDir) throw new Error('DATABASE_URL is required for this process');
  return openHistory({ kind: 'embedded', dataDir: join(dataDir, 'pglite'), schema });
}

/** Network errors that mean nothing answered at the URL's host and port. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * The line a process exits with when the history database cannot be opened: the setting, its value without the
 * password, the server's or the network's reason, and what to do (as "Redis does not answer at REDIS_URL=…").
 */
function databaseProblem(url: string, error: unknown): string {
  const at = `DATABASE_URL=${redactedUrl(url)}`;
  const { code, message } = error as { code?: string; message?: string };
  // Node's error for a name with several addresses (localhost) has an empty message and the code alone.
  const reason = message || code || String(error);
  if (code && UNREACHABLE.has(code))
    return `PostgreSQL does not answer at ${at} (${reason}): start it, or correct DATABASE_URL`;
  // SQLSTATE 3D000: no database of that name on the server.
  if (code === '3D000')
    return `PostgreSQL at ${at} refused: ${reason}. Create that database (createdb), or correct DATABASE_URL`;
  // SQLSTATE class 28: the user or password was refused.
  if (code?.startsWith('28'))
    return `PostgreSQL at ${at} refused: ${reason}. Correct the user or password in DATABASE_URL`;
  return `PostgreSQL at ${at} could not be used for the delivery history: ${reason}`;
}
