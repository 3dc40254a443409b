import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { freePorts } from './ports';
import {
  HOST,
  onNode,
  RedisServerProcess,
  run,
  serverFilesDir,
  withServerLogs,
  ServerExited,
  until,
  type RedisServerAddress,
} from './redis-servers';

export type RedisClusterNode = RedisServerAddress;

export interface RedisClusterOptions {
  masters?: number;
  /** Replicas per master (0 by default). */
  replicas?: number;
  password?: string;
  /** `cluster-node-timeout`: how long a master may be silent before its replica is promoted (5000 by default). */
  nodeTimeoutMs?: number;
  /** AOF with fsync every second, as the README recommends (off by default: nothing outlives the fixture). */
  appendOnly?: boolean;
}

export interface RedisClusterFixture {
  /** Every node, masters first as created (a failover changes who is master: ask `masterOf`). */
  readonly nodes: readonly RedisClusterNode[];
  /** The processes behind `nodes`, in the same order: kill, freeze, thaw, start again. */
  readonly servers: readonly RedisServerProcess[];
  /** The nodes as `REDIS_CLUSTER_NODES` takes them: `127.0.0.1:7001,127.0.0.1:7002,…`. */
  readonly seeds: string;
  /** `REDIS_URL` for hookline in cluster mode: it carries the password (the host is not used). */
  readonly redisUrl: string;
  /** The password every node requires (`requirepass`), or undefined. */
  readonly password?: string;
  /** A cluster client for the test itself (commands wait for reconnects, like hookline's own). */
  connect(): Cluster;
  /** Resolves once every running node reports `cluster_state:ok` and every slot is served. */
  healthy(timeoutMs?: number): Promise<void>;
  /** The servers that replicate this master, as the master itself lists them (CLUSTER REPLICAS). */
  replicasOf(master: RedisServerProcess): Promise<RedisServerProcess[]>;
  /** Stops every redis-server and removes their directory. */
  stop(): Promise<void>;
}

/**
 * A throwaway Redis Cluster of `masters` redis-server processes, each with `replicas` replicas, on free
 * loopback ports in a temporary directory, created with `redis-cli --cluster create` and returned once every
 * node reports `cluster_state:ok` with all 16384 slots assigned. With `password`, every node requires it.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterFixture> {
  // A free port can be taken by someone else before redis-server binds it: then start again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!(error instanceof ServerExited) || attempt === 3) throw error;
    }
  }
}

async function startOnce(options: RedisClusterOptions): Promise<RedisClusterFixture> {
  const { masters = 3, replicas = 0, password, nodeTimeoutMs = 5000, appendOnly = false } = options;
  const dir = serverFilesDir('hookline-cluster-');
  const servers: RedisServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  const total = masters * (1 + replicas);
  const healthy = async (timeoutMs?: number) => {
    for (const server of servers.filter((s) => s.running))
      await withServerLogs([server], () =>
        until(
          `cluster_state:ok on port ${server.port}`,
          () =>
            onNode(server, password, async (r) => {
              const info = String(await r.call('CLUSTER', 'INFO'));
              const known = /cluster_known_nodes:(\d+)/.exec(info)?.[1];
              // Every replica attached and in sync, and no node seen failing: a failover can happen at once.
              const lines = String(await r.call('CLUSTER', 'NODES'))
                .trim()
                .split('\n');
              const flags = lines.map((line) => line.split(' ')[2] ?? '');
              const synced =
                !/role:slave/.test(await r.info('replication')) ||
                /master_link_status:up/.test(await r.info('replication'));
              return info.includes('cluster_state:ok') &&
                info.includes('cluster_slots_ok:16384') &&
                Number(known) === total &&
                flags.filter((f) => f.includes('slave')).length === masters * replicas &&
                !flags.some((f) => f.includes('fail')) &&
                synced
                ? true
                : undefined;
            }),
          timeoutMs,
        ),
      );
  };
  try {
    // The bus ports are chosen too: the default (port + 10000) may be taken or out of range.
    const ports = await freePorts(2 * total);
    for (let i = 0; i < total; i++) {
      const [port, busPort] = [ports[2 * i]!, ports[2 * i + 1]!];
      const args = [
        ...['--port', String(port), '--cluster-port', String(busPort), '--bind', HOST],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
        ...[
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          '--dir',
          dir,
          '--dbfilename',
          `dump-${port}.rdb`,
        ],
        ...(appendOnly
          ? ['--appendonly', 'yes', '--appendfsync', 'everysec', '--appendfilename', `aof-${port}.aof`]
          : ['--appendonly', 'no']),
        ...['--save', '', '--daemonize', 'no'],
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
      ];
      servers.push(new RedisServerProcess(port, args, password, join(dir, `redis-${port}.log`)));
    }
    for (const server of servers) await server.start();
    await run('redis-cli', [
      ...(password ? ['-a', password, '--no-auth-warning'] : []),
      '--cluster',
      'create',
      ...servers.map((n) => `${n.host}:${n.port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    await healthy();
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = servers.map((s) => ({ host: s.host, port: s.port }));
  const replicasOf = async (master: RedisServerProcess) => {
    const id = await master.call(async (r) => String(await r.call('CLUSTER', 'MYID')));
    const lines = await master.call(async (r) => (await r.call('CLUSTER', 'REPLICAS', id)) as string[]);
    const ports = lines.map((line) => Number(/:(\d+)@/.exec(line)?.[1]));
    return servers.filter((s) => ports.includes(s.port));
  };
  return {
    nodes,
    servers,
    seeds: nodes.map((n) => `${n.host}:${n.port}`).join(','),
    redisUrl: password ? `redis://:${encodeURIComponent(password)}@cluster` : '',
    ...(password ? { password } : {}),
    connect: () =>
      new Cluster(
        nodes.map((n) => ({ ...n })),
        { redisOptions: { maxRetriesPerRequest: null, ...(password ? { password } : {}) } },
      ),
    healthy,
    replicasOf,
    stop,
  };
}

/**
 * A real Redis Cluster for the tests of one file: started before them, stopped after, with the client
 * `connect` makes for them (hookline's own in most tests, so commands go through its Cluster options).
 * Tests isolate themselves with a `uniquePrefix` of their own, as on one Redis.
 */
export function useRedisCluster<Client extends { disconnect(): void }>(
  connect: (cluster: RedisClusterFixture) => Client,
  options: RedisClusterOptions = { masters: 3 },
): { readonly cluster: RedisClusterFixture; readonly redis: Client } {
  const state = {} as { cluster: RedisClusterFixture; redis: Client };
  beforeAll(async () => {
    state.cluster = await startRedisCluster(options);
    state.redis = connect(state.cluster);
  }, 60_000);
  afterAll(async () => {
    state.redis?.disconnect();
    await state.cluster?.stop();
  });
  return state;
}
