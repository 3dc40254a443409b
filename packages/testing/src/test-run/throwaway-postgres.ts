import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, probePostgres } from './probes';
import { freePort, spawnServer, waitUntilReady } from './server-process';
import type { ThrowawayServer } from './throwaway-redis';

const run = promisify(execFile);
const START_TIMEOUT_MS = 30_000;
const PORT_ATTEMPTS = 3;

/**
 * The user the cluster runs as. PostgreSQL refuses to run as root, and CI runs as root: there it runs as the
 * `postgres` user Debian's package creates (else `nobody`); anyone else runs it as themselves.
 */
export function clusterUser(passwd = '/etc/passwd'): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const users = readFileSync(passwd, 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 4);
  const user = users.find((f) => f[0] === 'postgres') ?? users.find((f) => f[0] === 'nobody');
  if (!user)
    throw new Error(
      'running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as',
    );
  return { uid: Number(user[2]), gid: Number(user[3]) };
}

/**
 * A PostgreSQL cluster made for this run: `initdb` into the run's folder, trust for the loopback only, the
 * `test` database, on a port of its own. Durability is switched off — the cluster is deleted when the run ends.
 */
export async function startThrowawayPostgres(bin: string, dir: string): Promise<ThrowawayServer> {
  const user = clusterUser();
  const dataDir = join(dir, 'postgres');
  mkdirSync(dataDir, { mode: 0o700 });
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chownSync(dataDir, user.uid, user.gid);
  }
  await run(
    join(bin, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ],
    { timeout: 60_000, ...(user ?? {}) },
  ).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`initdb failed for the throwaway PostgreSQL: ${error.stderr?.trim() || error.message}`);
  });
  let lastLog = '';
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
    const port = await freePort();
    const server = spawnServer({
      program: join(bin, 'postgres'),
      args: [
        ['-D', dataDir],
        ['-p', String(port)],
        // The socket goes into the run's folder, so nothing is written to /var/run/postgresql.
        ['-k', dir],
        ['-c', 'listen_addresses=127.0.0.1'],
        ['-c', 'max_connections=200'],
        ['-c', 'fsync=off'],
        ['-c', 'synchronous_commit=off'],
        ['-c', 'full_page_writes=off'],
      ].flat(),
      logFile: join(dir, 'postgres.log'),
      ...(user ? { user } : {}),
    });
    const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const outcome = await waitUntilReady(
      server,
      async () => (await probePostgres(admin, 500)).kind === 'usable',
      START_TIMEOUT_MS,
    );
    if (outcome === 'ready') {
      const url = `postgres://postgres@127.0.0.1:${port}/test`;
      const failed = await createDatabase(url);
      if (failed !== undefined) {
        await server.stop('SIGINT');
        throw new Error(`the throwaway PostgreSQL would not create the test database: ${failed}`);
      }
      // SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing is waited for.
      return { url, process: server, stop: () => server.stop('SIGINT') };
    }
    lastLog = server.logTail();
    await server.stop('SIGKILL');
  }
  throw new Error(`the throwaway PostgreSQL did not start; its log ends with:\n${lastLog}`);
}
