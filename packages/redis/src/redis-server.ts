import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import IORedis from 'ioredis';

/** PING with a short timeout: is anything answering as Redis at this URL? */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    // Something that accepts the connection and never answers (not a Redis) is not waited on for ever: the
    // ready check (an INFO) has no time limit, the PING has.
    enableReadyCheck: false,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export class RedisServerMissing extends Error {
  constructor() {
    super(
      'No Redis answers at redis://127.0.0.1:6379 and there is no redis-server binary to start one.\n' +
        '  Install one:  sudo apt-get install redis-server   (macOS: brew install redis)\n' +
        '  or point hookline at yours:  REDIS_URL=redis://host:6379 pnpm start',
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const PID_FILE = 'redis.pid';

/** Whether `pid` is a running redis-server: /proc where there is one, else ps (macOS). */
function isRedisServer(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'redis-server';
  } catch {
    const ps = spawnSync('ps', ['-p', String(pid), '-o', 'comm='], { encoding: 'utf8' });
    return ps.status === 0 && /(^|\/)redis-server\s*$/.test(ps.stdout.trim());
  }
}

/**
 * The embedded redis-server of an earlier start that did not stop it (its start was killed: a child outlives
 * its parent's SIGKILL), found by the pid file it wrote in `dir`: stopped with SIGTERM, which has it write
 * its AOF out, before a new one opens the same files. Two servers on one AOF would each overwrite the other's.
 */
async function stopLeftOver(dir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, PID_FILE), 'utf8').trim());
  } catch {
    return;
  }
  if (!isRedisServer(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && isRedisServer(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isRedisServer(pid))
    throw new Error(
      `the embedded redis-server left by an earlier start (pid ${pid}, in ${dir}) did not stop`,
    );
}

/**
 * Starts a private redis-server as a child process with AOF persistence under `dataDir`, so a local
 * `pnpm start` works without any setup and keeps its events across restarts. One left running by an earlier
 * start is stopped first (stopLeftOver); the caller holds the data directory (one start at a time).
 */
export async function startEmbeddedRedis(
  dataDir: string,
  port?: number,
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error) throw new RedisServerMissing();
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  await stopLeftOver(dir);
  port ??= await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--daemonize',
      'no',
      // Written at start and removed at a clean exit: a server left by a killed start is found by it.
      '--pidfile',
      join(dir, PID_FILE),
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await redisAnswers(url, 200)) {
      return {
        url,
        port,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the embedded redis-server did not start on port ${port}`);
}
