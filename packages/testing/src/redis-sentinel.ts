import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { freePorts } from './ports';
import { HOST, RedisServerProcess, serverFilesDir, ServerExited, until } from './redis-servers';

export interface RedisSentinelOptions {
  /** Replicas of the primary (1 by default). */
  replicas?: number;
  /** Sentinels watching it (3 by default, quorum 2). */
  sentinels?: number;
  /** The name the sentinels know the primary by (`mymaster` by default). */
  masterName?: string;
  /** Password of every data node (`requirepass`, `masterauth`); the sentinels use it to reach them. */
  password?: string;
  /** `down-after-milliseconds`: how long the primary may be silent before a failover starts (1000). */
  downAfterMs?: number;
  appendOnly?: boolean;
}

export interface RedisSentinelFixture {
  /** The data nodes, the first primary at the start (a failover changes that: ask `primary()`). */
  readonly servers: readonly RedisServerProcess[];
  readonly sentinels: readonly RedisServerProcess[];
  readonly masterName: string;
  /** The sentinels as `REDIS_SENTINELS` takes them: `127.0.0.1:26001,…`. */
  readonly sentinelList: string;
  /** `REDIS_URL` for hookline with Sentinel: it carries the password (the host is not used). */
  readonly redisUrl: string;
  readonly password?: string;
  /** The data node the running sentinels name as primary, once they agree (see the function). */
  primary(): Promise<RedisServerProcess>;
  /** A client through the sentinels, for the test itself. */
  connect(): IORedis;
  stop(): Promise<void>;
}

/**
 * A primary, its replicas and a few Sentinels, as redis-server processes on free loopback ports in a
 * temporary directory; returned once every replica is in sync and every sentinel knows the others.
 */
export async function startRedisSentinel(options: RedisSentinelOptions = {}): Promise<RedisSentinelFixture> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!(error instanceof ServerExited) || attempt === 3) throw error;
    }
  }
}

async function startOnce(options: RedisSentinelOptions): Promise<RedisSentinelFixture> {
  const { replicas = 1, sentinels: sentinelCount = 3, masterName = 'mymaster', password } = options;
  const { downAfterMs = 1000, appendOnly = false } = options;
  const dir = serverFilesDir('hookline-sentinel-');
  const servers: RedisServerProcess[] = [];
  const sentinels: RedisServerProcess[] = [];
  const stop = async () => {
    await Promise.all([...servers, ...sentinels].map((s) => s.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = await freePorts(replicas + 1);
    const primaryPort = ports[0]!;
    for (let i = 0; i <= replicas; i++) {
      const port = ports[i]!;
      const args = [
        ...['--port', String(port), '--bind', HOST, '--dir', dir, '--dbfilename', `dump-${port}.rdb`],
        ...(appendOnly
          ? ['--appendonly', 'yes', '--appendfsync', 'everysec', '--appendfilename', `aof-${port}.aof`]
          : ['--appendonly', 'no']),
        ...['--save', '', '--daemonize', 'no'],
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
        ...(i > 0 ? ['--replicaof', HOST, String(primaryPort)] : []),
      ];
      servers.push(new RedisServerProcess(port, args, password, join(dir, `redis-${port}.log`)));
    }
    for (const server of servers) await server.start();
    for (const replica of servers.slice(1))
      await until(`replica ${replica.port} in sync`, () =>
        replica.call(async (r) =>
          /master_link_status:up/.test(await r.info('replication')) ? true : undefined,
        ),
      );
    const sentinelPorts = await freePorts(sentinelCount);
    for (let i = 0; i < sentinelCount; i++) {
      const port = sentinelPorts[i]!;
      const file = join(dir, `sentinel-${port}.conf`);
      // Sentinel rewrites its own file (what it learns about replicas and the other sentinels).
      writeFileSync(
        file,
        [
          `port ${port}`,
          `bind ${HOST}`,
          `dir ${dir}`,
          `sentinel monitor ${masterName} ${HOST} ${primaryPort} ${Math.floor(sentinelCount / 2) + 1}`,
          `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
          `sentinel failover-timeout ${masterName} 10000`,
          `sentinel parallel-syncs ${masterName} 1`,
          ...(password ? [`sentinel auth-pass ${masterName} ${password}`] : []),
          '',
        ].join('\n'),
      );
      sentinels.push(
        new RedisServerProcess(
          port,
          [file, '--sentinel', '--daemonize', 'no'],
          undefined,
          join(dir, `sentinel-${port}.log`),
        ),
      );
    }
    for (const sentinel of sentinels) await sentinel.start();
    for (const sentinel of sentinels)
      await until(`sentinel ${sentinel.port} knows the others`, () =>
        sentinel.call(async (r) => {
          const master = (await r.call('SENTINEL', 'MASTER', masterName)) as string[];
          const field = (name: string) => Number(master[master.indexOf(name) + 1]);
          return field('num-other-sentinels') === sentinelCount - 1 && field('num-slaves') === replicas
            ? true
            : undefined;
        }),
      );
  } catch (error) {
    await stop();
    throw error;
  }
  const sentinelList = sentinels.map((s) => `${s.host}:${s.port}`).join(',');
  // The primary the running sentinels name. Right after a failover the others may name the old primary for a
  // moment (they learn the new configuration from the leader's hello messages) while a client that asked the
  // leader already writes to the promoted one: this waits (up to 10 s) until they all agree, and if they never
  // do, answers with the newest configuration epoch's.
  const primary = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const views: { epoch: number; server: RedisServerProcess }[] = [];
      for (const sentinel of sentinels.filter((s) => s.running)) {
        const master = await sentinel
          .call(async (r) => (await r.call('SENTINEL', 'MASTER', masterName)) as string[])
          .catch(() => undefined);
        if (!master) continue;
        const field = (name: string) => master[master.indexOf(name) + 1];
        const server = servers.find((s) => s.port === Number(field('port')));
        if (server) views.push({ epoch: Number(field('config-epoch')), server });
      }
      if (views.length === 0) throw new Error('Redis Sentinel fixture: no sentinel names a primary');
      const newest = views.reduce((a, b) => (b.epoch > a.epoch ? b : a));
      if (views.every((v) => v.server === newest.server) || Date.now() > deadline) return newest.server;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    servers,
    sentinels,
    masterName,
    sentinelList,
    redisUrl: password ? `redis://:${encodeURIComponent(password)}@sentinel` : '',
    ...(password ? { password } : {}),
    primary,
    connect: () =>
      new IORedis({
        sentinels: sentinels.map((s) => ({ host: s.host, port: s.port })),
        name: masterName,
        maxRetriesPerRequest: null,
        ...(password ? { password } : {}),
      }),
    stop,
  };
}

/**
 * A primary and one replica (no sentinels) for a test file, with a client of the primary that waits out
 * reconnects as hookline's own do (`maxRetriesPerRequest: null`). `configure` readies the client once it
 * exists (tests of replica acknowledgements pass `requireReplicaAcks`, which lives in @hookline/redis).
 */
export function useRedisPair(configure: (redis: IORedis) => unknown = () => undefined) {
  const fixture = {
    pair: undefined as unknown as RedisSentinelFixture,
    redis: undefined as unknown as IORedis,
    /** The replica, to freeze and thaw. */
    get replica(): RedisServerProcess {
      return fixture.pair.servers[1]!;
    },
  };
  beforeAll(async () => {
    fixture.pair = await startRedisSentinel({ replicas: 1, sentinels: 0 });
    const primary = fixture.pair.servers[0]!;
    fixture.redis = new IORedis(primary.port, primary.host, { maxRetriesPerRequest: null });
    configure(fixture.redis);
  }, 30_000);
  afterAll(async () => {
    fixture.redis?.disconnect();
    await fixture.pair?.stop();
  });
  return fixture;
}
