import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis, { Cluster } from 'ioredis';

export interface RedisClusterNode {
  readonly host: string;
  readonly port: number;
}

export interface RedisClusterFixture {
  readonly nodes: readonly RedisClusterNode[];
  /** The nodes as `REDIS_CLUSTER_NODES` takes them: `127.0.0.1:7001,127.0.0.1:7002,…`. */
  readonly seeds: string;
  /** `REDIS_URL` for hookline in cluster mode: it carries the password (the host is not used). */
  readonly redisUrl: string;
  /** The password every node requires (`requirepass`), or undefined. */
  readonly password?: string;
  /** A cluster client for the test itself (commands wait for reconnects, like hookline's own). */
  connect(): Cluster;
  /** Stops every redis-server and removes their directory. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 20_000;

/** A redis-server stopped while starting (most likely its port was taken meanwhile). */
class ServerExited extends Error {}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const value = await check().catch((error: unknown) => {
      // A missing binary will not appear by waiting, nor an exited server answer; a starting server will.
      if (error instanceof ServerExited || (error instanceof Error && error.message.startsWith('cannot run')))
        throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Redis Cluster fixture: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs a command on one node over a short-lived plain connection. */
async function onNode<T>(
  node: RedisClusterNode,
  password: string | undefined,
  run: (redis: IORedis) => Promise<T>,
): Promise<T> {
  const redis = new IORedis(node.port, node.host, {
    ...(password ? { password } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

function run(command: string, args: readonly string[]): Promise<string> {
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

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * A throwaway Redis Cluster of `masters` redis-server processes (no replicas, no persistence) on free
 * loopback ports in a temporary directory, created with `redis-cli --cluster create` and returned once every
 * node reports `cluster_state:ok` with all 16384 slots assigned. With `password`, every node requires it.
 */
export async function startRedisCluster(
  options: { masters?: number; password?: string } = {},
): Promise<RedisClusterFixture> {
  // A free port can be taken by someone else before redis-server binds it: then start again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options.masters ?? 3, options.password);
    } catch (error) {
      if (!(error instanceof ServerExited) || attempt === 3) throw error;
    }
  }
}

async function startOnce(masters: number, password: string | undefined): Promise<RedisClusterFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: RedisClusterNode[] = [];
  let spawnError: Error | undefined;
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      // The bus port is chosen too: the default (port + 10000) may be taken or out of range.
      const [port, busPort] = [await freePort(), await freePort()];
      const child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--cluster-port', String(busPort), '--bind', HOST],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
          ...['--cluster-node-timeout', '5000', '--dir', dir, '--dbfilename', `dump-${port}.rdb`],
          ...['--appendonly', 'no', '--save', '', '--daemonize', 'no'],
          ...(password ? ['--requirepass', password, '--masterauth', password] : []),
        ],
        { stdio: 'ignore' },
      );
      child.once('error', (error) => (spawnError ??= error));
      children.push(child);
      nodes.push({ host: HOST, port });
    }
    for (const [i, node] of nodes.entries())
      await until(`redis-server on port ${node.port}`, async () => {
        if (spawnError) throw new Error(`cannot run redis-server: ${spawnError.message}`);
        if (children[i]!.exitCode !== null) throw new ServerExited(`redis-server on ${node.port} exited`);
        return onNode(node, password, async (r) => ((await r.ping()) === 'PONG' ? true : undefined));
      });
    await run('redis-cli', [
      ...(password ? ['-a', password, '--no-auth-warning'] : []),
      '--cluster',
      'create',
      ...nodes.map((n) => `${n.host}:${n.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const node of nodes)
      await until(`cluster_state:ok on port ${node.port}`, () =>
        onNode(node, password, async (r) => {
          const info = String(await r.call('CLUSTER', 'INFO'));
          const known = /cluster_known_nodes:(\d+)/.exec(info)?.[1];
          return info.includes('cluster_state:ok') &&
            info.includes('cluster_slots_ok:16384') &&
            Number(known) === masters
            ? true
            : undefined;
        }),
      );
  } catch (error) {
    await stop();
    throw error;
  }
  const seeds = nodes.map((n) => `${n.host}:${n.port}`).join(',');
  return {
    nodes,
    seeds,
    redisUrl: password ? `redis://:${encodeURIComponent(password)}@cluster` : '',
    ...(password ? { password } : {}),
    connect: () =>
      new Cluster(
        nodes.map((n) => ({ ...n })),
        { redisOptions: { maxRetriesPerRequest: null, ...(password ? { password } : {}) } },
      ),
    stop,
  };
}
