import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { EmbeddedRedisDidNotStart, whyRedisServerStopped } from './embedded-redis-cause';

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
  /** `first`: the line that says why one was wanted (the caller knows: no Redis answered, or a flag). */
  constructor(
    first = 'No Redis answers at redis://127.0.0.1:6379 and there is no redis-server binary to start one.',
  ) {
    super(
      `${first}\n` +
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

/** How an embedded redis-server ended: its exit code or signal, and the last lines it printed (why, if it said). */
export interface EmbeddedRedisExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lastLines: readonly string[];
}

/** One running embedded redis-server. */
export interface EmbeddedRedis {
  readonly url: string;
  readonly port: number;
  /** Its AOF directory. */
  readonly dir: string;
  readonly pid: number;
  /** Settles when it exits, whoever ended it. */
  readonly exited: Promise<EmbeddedRedisExit>;
  /** SIGTERM (it writes its AOF out) and waits for the exit. */
  stop(): Promise<void>;
}

/** Long enough to load a sizeable AOF (it answers only once that is done). */
const START_TIMEOUT_MS = 30_000;

/** redis-server's own lines kept for naming why it stopped: what it prints when it refuses to start fits. */
const LINES_KEPT = 20;

/**
 * Starts a private redis-server as a child process with AOF persistence under `dataDir`, so a local
 * `pnpm start` works without any setup and keeps its events across restarts. One left running by an earlier
 * start is stopped first (stopLeftOver); the caller holds the data directory (one start at a time). It is not
 * started again if it dies: superviseEmbeddedRedis does that.
 */
export async function startEmbeddedRedis(dataDir: string, port?: number): Promise<EmbeddedRedis> {
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
      // What the README promises of a Redis restart ("What survives what"): each write is handed to the file
      // before its reply and reaches the disk within the second, so a restart loses at most the last second.
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--daemonize',
      'no',
      // Written at start and removed at a clean exit: a server left by a killed start is found by it.
      '--pidfile',
      join(dir, PID_FILE),
    ],
    // Its own process group: a Ctrl-C in the terminal reaches only hookline, which stops it last, once the
    // work in hand is done, instead of it vanishing under the workers that are finishing.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const lastLines: string[] = [];
  // It writes each log line with one write(2), so a read ends on a line's end (a pipe splits only long bursts).
  const keep = (chunk: Buffer | string) => {
    lastLines.push(...chunk.toString().split('\n').filter(Boolean));
    lastLines.splice(0, lastLines.length - LINES_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // However this process ends (an exit on an error, a stop past its bound), it does not leave the server behind.
  const stopAtExit = () => child.kill('SIGTERM');
  process.on('exit', stopAtExit);
  let ended = false;
  const exited = new Promise<EmbeddedRedisExit>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      process.off('exit', stopAtExit);
      // Its last lines (why it stopped) may still be in the pipe until 'close'; an AOF rewrite it forked holds
      // the pipe open until that ends, and must not hold this up.
      const settle = () => resolve({ code, signal, lastLines: [...lastLines] });
      const timer = setTimeout(settle, 1000);
      child.once('close', () => {
        clearTimeout(timer);
        settle();
      });
    });
    // Not started at all (then there is no 'exit'): the reason is its last line.
    child.once('error', (error) => {
      ended = true;
      process.off('exit', stopAtExit);
      keep(error.message);
      resolve({ code: null, signal: null, lastLines: [...lastLines] });
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!ended && Date.now() < deadline) {
    if (await redisAnswers(url, 200)) {
      return {
        url,
        port,
        dir,
        pid: child.pid!,
        exited,
        stop: async () => {
          if (!ended) child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const timedOut = !ended;
  if (timedOut) child.kill('SIGKILL');
  const place = { port, dir };
  const why = whyRedisServerStopped((await exited).lastLines, place);
  throw new EmbeddedRedisDidNotStart(
    place,
    timedOut ? `it did not answer within ${START_TIMEOUT_MS / 1000} s (${why})` : why,
  );
}
