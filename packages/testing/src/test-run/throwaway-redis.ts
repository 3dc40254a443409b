import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ephemeralRedisArgs } from '../redis-args';
import { probeRedis } from './probes';
import { freePort, spawnServer, waitUntilReady, type ServerProcess } from './server-process';

/** A server the run started for the suite and stops when the run ends. */
export interface ThrowawayServer {
  /** The URL the suite is given (TEST_REDIS_URL or TEST_DATABASE_URL). */
  readonly url: string;
  readonly process: ServerProcess;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;
/** A port taken between picking it and binding it makes the server exit at once; another port then. */
const PORT_ATTEMPTS = 3;

/** A redis-server on a port of its own, keeping nothing on disk: the suite's data lives as long as the run. */
export async function startThrowawayRedis(redisServer: string, dir: string): Promise<ThrowawayServer> {
  const dataDir = join(dir, 'redis');
  mkdirSync(dataDir, { recursive: true });
  let lastLog = '';
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
    const port = await freePort();
    const server = spawnServer({
      program: redisServer,
      args: [
        ...ephemeralRedisArgs(port),
        '--dir',
        dataDir,
        // Read by a later run if this one is killed before it can stop the server (leftovers.ts).
        '--pidfile',
        join(dir, 'redis-server.pid'),
      ],
      logFile: join(dir, 'redis-server.log'),
    });
    const url = `redis://127.0.0.1:${port}`;
    const outcome = await waitUntilReady(
      server,
      async () => (await probeRedis(url, 300)).kind === 'usable',
      START_TIMEOUT_MS,
    );
    if (outcome === 'ready') return { url, process: server, stop: () => server.stop('SIGTERM') };
    lastLog = server.logTail();
    await server.stop('SIGKILL');
  }
  throw new Error(`the throwaway redis-server did not start; its log ends with:\n${lastLog}`);
}
