import { pgClient } from '@hookline/history';
import { cpuSecondsNow, redisConnectionsOf } from './proc';

// PostgreSQL's own CPU for the bench's processes: the server backends that serve their connections (one
// process each), found from the processes' sockets to PostgreSQL's port (/proc) and pg_stat_activity's
// client_port, then read from /proc/<backend>/stat like any process. The server's shared background work
// (WAL writer, checkpointer, autovacuum) is not counted: other databases of the same server cause it too.

/** The backend pids serving connections of these processes (local processes, loopback connections). */
export async function postgresBackendsOf(databaseUrl: string, pids: readonly number[]): Promise<number[]> {
  const url = new URL(databaseUrl);
  const port = url.port ? Number(url.port) : 5432;
  const local = (await Promise.all(pids.map((pid) => redisConnectionsOf(pid, port)))).flat();
  const clientPorts = local.map((address) => Number(address.slice(address.lastIndexOf(':') + 1)));
  if (clientPorts.length === 0) return [];
  const client = pgClient({ url: databaseUrl, schema: 'public', max: 1, applicationName: 'hookline-bench' });
  try {
    const rows = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])',
      [clientPorts],
    );
    return rows.map((row) => Number(row.pid));
  } finally {
    await client.close();
  }
}

/** CPU seconds of each backend so far (undefined once it has gone), read synchronously at a window's edge. */
export function backendsCpuSeconds(pids: readonly number[]): (number | undefined)[] {
  return pids.map(cpuSecondsNow);
}

/** CPU seconds the backends used between two readings, counting those alive at both. */
export function backendsCpuUsed(
  before: readonly (number | undefined)[],
  after: readonly (number | undefined)[],
): number {
  return before.reduce<number>((sum, start, i) => {
    const end = after[i];
    return start !== undefined && end !== undefined ? sum + (end - start) : sum;
  }, 0);
}
