import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import IORedis from 'ioredis';
import pg from 'pg';
import { TEST_DATABASE_URL, TEST_REDIS_URL, waitUntil } from '../../src';
import { probePostgres, probeRedis } from '../../src/test-run/probes';
import { freePort } from '../../src/test-run/server-process';
import { probeServices, startServices, type RunServices } from '../../src/test-run/services';
import { findPostgresBin, onPath } from '../../src/test-run/preflight';

const redisServer = onPath('redis-server', process.env.PATH ?? '') ?? 'redis-server';
const postgresBin = findPostgresBin({ PATH: process.env.PATH ?? '', postgresRoots: ['/usr/lib/postgresql'] });

/** The processes of a run: PostgreSQL names the run's folder, redis-server its port, on their command lines. */
function processesOf(dir: string, redisUrl: string): string[] {
  const redis = `redis-server 127.0.0.1:${new URL(redisUrl).port}`;
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '';
      }
    })
    .filter((command) => command.includes(dir) || command.includes(redis));
}

async function nowhere(): Promise<{ redisUrl: string; databaseUrl: string }> {
  return {
    redisUrl: `redis://127.0.0.1:${await freePort()}`,
    databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/test`,
  };
}

describe('the servers pnpm test runs against', () => {
  let services: RunServices | undefined;
  afterEach(async () => {
    await services?.stop();
    services = undefined;
  });

  it('starts a throwaway Redis and PostgreSQL when nothing answers, and stops and deletes them afterwards', async () => {
    const wanted = await nowhere();
    const probe = await probeServices(wanted);
    expect(probe).toEqual({ redis: { kind: 'absent' }, postgres: { kind: 'absent' } });
    services = await startServices({ wanted, probe, redisServer, postgresBin, interrupted: () => false });
    const { TEST_REDIS_URL: redisUrl, TEST_DATABASE_URL: databaseUrl } = services.env;
    expect(redisUrl).not.toBe(wanted.redisUrl);
    expect(databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test$/);
    expect(services.report).toEqual([
      `Redis: throwaway redis-server at ${redisUrl} (nothing answers at ${wanted.redisUrl})`,
      `PostgreSQL: throwaway cluster at ${databaseUrl} (nothing answers at ${wanted.databaseUrl})`,
    ]);

    const redis = new IORedis(redisUrl);
    await redis.set('probe', 'kept');
    expect(await redis.get('probe')).toBe('kept');
    redis.disconnect();
    // What the history tests do: a schema of their own in the `test` database, trust auth for postgres.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('CREATE SCHEMA t1; CREATE TABLE t1.rows (n int); INSERT INTO t1.rows VALUES (1)');
    expect((await client.query('SELECT n FROM t1.rows')).rows).toEqual([{ n: 1 }]);
    await client.end();

    const dir = services.dir as string;
    expect(existsSync(`${dir}/postgres/PG_VERSION`)).toBe(true);
    // Both servers, in whichever order they got their process ids (they start side by side).
    const running = processesOf(dir, redisUrl);
    expect(running).toHaveLength(2);
    expect(running).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/redis-server 127\.0\.0\.1:\d+/),
        expect.stringMatching(/^\S*postgres -D /),
      ]),
    );
    await services.stop();
    expect(processesOf(dir, redisUrl)).toEqual([]);
    expect(await probeRedis(redisUrl)).toEqual({ kind: 'absent' });
    expect(await probePostgres(databaseUrl)).toEqual({ kind: 'absent' });
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it('uses a Redis and a PostgreSQL that already answer, and starts nothing', async () => {
    const wanted = { redisUrl: TEST_REDIS_URL, databaseUrl: TEST_DATABASE_URL };
    const probe = await probeServices(wanted);
    services = await startServices({ wanted, probe, redisServer, postgresBin, interrupted: () => false });
    expect(services.env).toEqual({ TEST_REDIS_URL, TEST_DATABASE_URL });
    expect(services.dir).toBeUndefined();
    expect(services.report).toEqual([
      `Redis: ${TEST_REDIS_URL} (answering, used as it is)`,
      `PostgreSQL: ${TEST_DATABASE_URL} (answering, used as it is)`,
    ]);
  });

  it('does not take a server that is not Redis for one, and starts its own instead', async () => {
    const impostor: Server = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = impostor.address() as { port: number };
      const wanted = { redisUrl: `redis://127.0.0.1:${port}`, databaseUrl: TEST_DATABASE_URL };
      const probe = await probeServices(wanted);
      expect(probe.redis).toEqual({
        kind: 'refused',
        reason: 'it answers PING with HTTP/1.1 400 Bad Request',
      });
      services = await startServices({ wanted, probe, redisServer, postgresBin, interrupted: () => false });
      expect(services.report[0]).toBe(
        `Redis: throwaway redis-server at ${services.env.TEST_REDIS_URL} (${wanted.redisUrl} turned the suite ` +
          'away: it answers PING with HTTP/1.1 400 Bad Request)',
      );
      expect(await probeRedis(services.env.TEST_REDIS_URL)).toEqual({ kind: 'usable' });
    } finally {
      impostor.close();
    }
  });

  it('passes over a Redis that wants a password, naming why', async () => {
    const port = await freePort();
    const guarded = spawn(
      redisServer,
      ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', 'x', '--save', ''],
      {
        stdio: 'ignore',
      },
    );
    try {
      const url = `redis://127.0.0.1:${port}`;
      await waitUntil(async () => (await probeRedis(url)).kind !== 'absent', 'the guarded Redis');
      expect(await probeRedis(url)).toEqual({
        kind: 'refused',
        reason: 'it answers PING with -NOAUTH Authentication required.',
      });
    } finally {
      guarded.kill('SIGKILL');
    }
  });

  it('passes over a server on the PostgreSQL port that does not speak PostgreSQL', async () => {
    const impostor: Server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = impostor.address() as { port: number };
      const probe = await probePostgres(`postgres://postgres@127.0.0.1:${port}/test`);
      expect(probe).toEqual({ kind: 'refused', reason: 'Connection terminated unexpectedly' });
    } finally {
      impostor.close();
    }
  });

  it('creates the test database on a PostgreSQL that answers without it', async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/test_missing_${process.pid}_${Date.now()}`;
    try {
      expect(await probePostgres(url.toString())).toEqual({ kind: 'usable' });
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      expect((await client.query('SELECT current_database() AS db')).rows).toEqual([
        { db: url.pathname.slice(1) },
      ]);
      await client.end();
    } finally {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}"`);
      await admin.end();
    }
  });

  it('starts nothing once the run is interrupted', async () => {
    const wanted = await nowhere();
    services = await startServices({
      wanted,
      probe: await probeServices(wanted),
      redisServer,
      postgresBin,
      interrupted: () => true,
    });
    expect(services.dir).toBeUndefined();
    expect(services.report).toEqual([]);
  });
});
