import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import IORedis from 'ioredis';

/** PING with a short timeout: is anything answering as Redis at this URL? */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
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

/**
 * Starts a private redis-server as a child process with AOF persistence under `dataDir`, so a local
 * `pnpm start` works without any setup and keeps its events across restarts.
 */
export async function startEmbeddedRedis(
  dataDir: string,
  port?: number,
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error) throw new RedisServerMissing();
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
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
