import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { dropBenchSchema } from '../history/drop-schema';
import type { LoadOptions } from './load-options';

// One HTTP tier under load (see publish-load.ts): a child process on a queue prefix of its own, its CPU read
// from /proc, its keys removed when it stops.

const TICKS_PER_SECOND = 100;

/** User and system CPU seconds of a process so far. */
/**
 * Read and write system calls of a process so far (/proc/<pid>/io: sockets and files alike, writev counted
 * once). A count, unlike CPU time, says the same whatever else the machine runs.
 */
export function syscallsOf(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? NaN);
  return { reads: field('syscr'), writes: field('syscw') };
}

export function cpuSeconds(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/**
 * CPU seconds (user + system) of a process's main thread (the event loop: JavaScript, parsing, syscalls) and
 * of its other threads together (V8's GC and compiler helpers, libuv's pool), which all share the name "node".
 */
export function cpuByThread(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    const name = tid === String(pid) ? 'main' : 'helpers';
    threads.set(name, (threads.get(name) ?? 0) + seconds);
  }
  return threads;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export class Tier {
  readonly prefix = `loadtest-${randomBytes(6).toString('hex')}`;
  readonly apiKey = randomBytes(24).toString('hex');
  readonly schema = `load_${this.prefix.replace(/[^a-z0-9]/g, '_')}`;
  private child?: ChildProcess;
  pool?: Pool;

  constructor(
    private readonly entry: string,
    private readonly opts: LoadOptions,
    private readonly profileTag: string,
  ) {}

  get pid(): number {
    return this.child!.pid!;
  }

  async start(): Promise<void> {
    const port = await freePort();
    const profile = this.opts.cpuProfDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${this.opts.cpuProfDir}`,
          `--cpu-prof-name=${this.profileTag}.cpuprofile`,
        ]
      : [];
    mkdirSync(dirname(this.opts.logFile), { recursive: true });
    const log = openSync(this.opts.logFile, 'a');
    this.child = spawn(process.execPath, [...this.opts.nodeArgs, ...profile, this.entry], {
      env: {
        PATH: process.env.PATH,
        REDIS_URL: this.opts.redisUrl,
        HOOKLINE_QUEUE_PREFIX: this.prefix,
        DATABASE_URL: this.opts.databaseUrl,
        HOOKLINE_DATABASE_SCHEMA: this.schema,
        HOOKLINE_API_KEY: this.apiKey,
        HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: this.opts.logLevel,
      },
      // Anything a node flag makes the child write (V8 logs) lands there, not in the work tree.
      cwd: tmpdir(),
      // Its log lines go to a file, as a deployment's go to a collector: a terminal would slow the tier down.
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.pool = new Pool(`http://127.0.0.1:${port}`, { connections: this.opts.connections, pipelining: 1 });
    for (let i = 0; i < 200; i++) {
      if (this.child.exitCode !== null)
        throw new Error(
          `${this.entry} exited with ${this.child.exitCode} (its output: ${this.opts.logFile})`,
        );
      const ok = await this.pool
        .request({ method: 'GET', path: '/readyz' })
        .then(async (r) => (await r.body.dump(), r.statusCode === 200))
        .catch(() => false);
      if (ok) {
        process.stdout.write(`${this.profileTag}: pid ${this.child.pid}\n`);
        return;
      }
      await sleep(100);
    }
    throw new Error(`${this.entry} did not answer /readyz`);
  }

  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await this.pool!.request({
      method,
      path,
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  }

  private stopping?: Promise<void>;

  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce(): Promise<void> {
    await this.pool?.close();
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    const redis = new Redis(this.opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
      await dropBenchSchema(this.opts.databaseUrl, this.schema).catch(() => undefined);
    }
  }
}
