import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { freePorts } from './ports';
import { ephemeralRedisArgs } from './redis-args';

// What the Redis fixtures (cluster, replication with Sentinel) share: free ports, one redis-server process
// that can be killed, frozen and started again on the same port with the same files, and short-lived plain
// connections to one server.

export const HOST = '127.0.0.1';
export const START_TIMEOUT_MS = 20_000;

export interface RedisServerAddress {
  readonly host: string;
  readonly port: number;
}

const SHARED_MEMORY = '/dev/shm';
/** A container's /dev/shm may be 64 MB; a failover suite's servers write tens of MB of AOF each. */
const SHARED_MEMORY_NEEDED_BYTES = 2 ** 30;

/**
 * A new directory for a fixture's servers' files (RDB, AOF, logs, configs), in memory (/dev/shm) where the
 * machine has it with 1 GiB free. The failover suites time promotions and resyncs under load; on a shared CI
 * disk the fsyncs of a full resync and an AOF rewrite wait behind every other process's writes, which is the
 * disk's time, not Redis's or hookline's. Elsewhere the system's temporary directory.
 */
export function serverFilesDir(prefix: string): string {
  let root = tmpdir();
  try {
    const space = statfsSync(SHARED_MEMORY);
    accessSync(SHARED_MEMORY, constants.W_OK);
    if (space.bavail * space.bsize >= SHARED_MEMORY_NEEDED_BYTES) root = SHARED_MEMORY;
  } catch {
    // no /dev/shm, or not writable: the temporary directory
  }
  return mkdtempSync(join(root, prefix));
}

/** A redis-server stopped while starting (most likely its port was taken meanwhile). */
export class ServerExited extends Error {}

export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = START_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch((error: unknown) => {
      // A missing binary will not appear by waiting, nor an exited server answer; a starting server will.
      if (error instanceof ServerExited || (error instanceof Error && error.message.startsWith('cannot run')))
        throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Redis fixture: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs a command on one server over a short-lived plain connection. */
export async function onNode<T>(
  node: RedisServerAddress,
  password: string | undefined,
  run: (redis: IORedis) => Promise<T>,
): Promise<T> {
  const redis = new IORedis(node.port, node.host, {
    ...(password ? { password } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

export function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`));
    });
  });
}

/**
 * One redis-server (or sentinel) process on a fixed port. `kill` and `freeze`/`thaw` are what a test does to
 * it (SIGKILL, SIGSTOP, SIGCONT); `start` runs it again with the same arguments, so the same files.
 */
export class RedisServerProcess implements RedisServerAddress {
  readonly host = HOST;
  private child?: ChildProcess;
  private spawnError?: Error;

  /**
   * `logFile`, when given, is where the process writes its log (`--logfile`): what a test prints when a
   * server does not do what it waited for (see `logTail`).
   */
  constructor(
    readonly port: number,
    private readonly args: readonly string[],
    private readonly password?: string,
    readonly logFile?: string,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Starts the process (with `extraArgs` after its own) and resolves once it answers, itself: a server that
   * already holds the port would answer a PING while this one exits with "Address already in use".
   */
  async start(extraArgs: readonly string[] = []): Promise<void> {
    if (this.running) return;
    this.spawnError = undefined;
    const logArgs = this.logFile ? ['--logfile', this.logFile] : [];
    const child = spawn('redis-server', [...this.args, ...logArgs, ...extraArgs], { stdio: 'ignore' });
    child.once('error', (error) => (this.spawnError ??= error));
    this.child = child;
    await until(`redis-server on port ${this.port}`, async () => {
      if (this.spawnError) throw new Error(`cannot run redis-server: ${this.spawnError.message}`);
      if (child.exitCode !== null) throw new ServerExited(`redis-server on ${this.port} exited`);
      return onNode(this, this.password, async (r) =>
        /^process_id:(\d+)/m.exec(await r.info('server'))?.[1] === String(child.pid) ? true : undefined,
      );
    });
  }

  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<void> {
    const child = this.child;
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    });
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  /** Runs `run` with this server frozen, and thaws it however `run` ends. */
  async whileFrozen<T>(run: () => Promise<T>): Promise<T> {
    this.freeze();
    try {
      return await run();
    } finally {
      this.thaw();
    }
  }

  /** Runs a command on this server over a short-lived connection. */
  call<T>(run: (redis: IORedis) => Promise<T>): Promise<T> {
    return onNode(this, this.password, run);
  }

  /** The last `lines` lines of the process's log ('' without a log file or before it is written). */
  logTail(lines = 40): string {
    if (!this.logFile || !existsSync(this.logFile)) return '';
    return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** `master` or `slave` from INFO replication. */
  async role(): Promise<string> {
    return this.call(async (r) => /role:(\w+)/.exec(await r.info('replication'))?.[1] ?? 'unknown');
  }
}

/**
 * Runs `wait`; when it fails, fails with its message, `detail()` (say, INFO replication) and the last lines of
 * each server's log: what a CI run leaves to say why a server did not do what the test waited for.
 */
export async function withServerLogs<T>(
  servers: readonly RedisServerProcess[],
  wait: () => Promise<T>,
  detail: () => string = () => '',
): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const logs = servers.map((s) => `--- ${s.port}\n${s.logTail(30)}`);
    throw new Error([(error as Error).message, detail(), ...logs].filter(Boolean).join('\n'));
  }
}

/**
 * A plain redis-server of the test's own on a free loopback port, keeping nothing on disk: for a test that
 * freezes or kills the Redis a process uses, which the machine's shared one must never be. `kill()` it after.
 */
export async function startRedisServer(): Promise<RedisServerProcess> {
  const [port] = await freePorts(1);
  const server = new RedisServerProcess(port!, ephemeralRedisArgs(port!));
  await server.start();
  return server;
}
