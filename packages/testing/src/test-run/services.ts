import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probePostgres, probeRedis, type Probe } from './probes';
import { startThrowawayPostgres } from './throwaway-postgres';
import { startThrowawayRedis, type ThrowawayServer } from './throwaway-redis';

/** The URLs the suite reads (packages/testing's fixtures), and where they point when nobody sets them. */
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Every run folder starts so; a folder whose runner died is recognised by it (see leftovers.ts). */
export const RUN_DIR_PREFIX = 'hookline-test-run-';

export interface WantedServices {
  readonly redisUrl: string;
  readonly databaseUrl: string;
}

export interface ServicesProbe {
  readonly redis: Probe;
  readonly postgres: Probe;
}

/** What the run uses: a server already running, or one it started (stopped by `stop`). */
export interface RunServices {
  readonly env: { TEST_REDIS_URL: string; TEST_DATABASE_URL: string };
  /** One line per service, for the terminal: which server, and why. */
  readonly report: readonly string[];
  /** The run's folder (logs, the throwaway cluster), or undefined when nothing was started. */
  readonly dir: string | undefined;
  /** Stops what was started and deletes the run's folder. Safe to call twice. */
  stop(): Promise<void>;
}

export async function probeServices(wanted: WantedServices): Promise<ServicesProbe> {
  const [redis, postgres] = await Promise.all([
    probeRedis(wanted.redisUrl),
    probePostgres(wanted.databaseUrl),
  ]);
  return { redis, postgres };
}

function why(probe: Probe, url: string): string {
  return probe.kind === 'refused'
    ? `${url} turned the suite away: ${probe.reason}`
    : `nothing answers at ${url}`;
}

/**
 * Starts a throwaway server for each service that is not usable. Whatever was started before a failure (or
 * before `interrupted()` turned true) is stopped again, so a failed start leaves nothing behind.
 */
export async function startServices(options: {
  readonly wanted: WantedServices;
  readonly probe: ServicesProbe;
  readonly redisServer: string;
  readonly postgresBin: string | undefined;
  readonly interrupted: () => boolean;
}): Promise<RunServices> {
  const { wanted, probe } = options;
  const started: ThrowawayServer[] = [];
  let dir: string | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    // PostgreSQL first: it is the slower to stop, and Redis has nothing to flush.
    for (const server of [...started].reverse()) await server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const runDir = () => {
    dir ??= mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
    writeFileSync(join(dir, 'runner.pid'), `${process.pid}\n`);
    return dir;
  };
  const report: string[] = [];
  const env = { TEST_REDIS_URL: wanted.redisUrl, TEST_DATABASE_URL: wanted.databaseUrl };
  try {
    if (probe.redis.kind === 'usable') report.push(`Redis: ${wanted.redisUrl} (answering, used as it is)`);
    else if (!options.interrupted()) {
      const redis = await startThrowawayRedis(options.redisServer, runDir());
      started.push(redis);
      env.TEST_REDIS_URL = redis.url;
      report.push(`Redis: throwaway redis-server at ${redis.url} (${why(probe.redis, wanted.redisUrl)})`);
    }
    if (probe.postgres.kind === 'usable')
      report.push(`PostgreSQL: ${wanted.databaseUrl} (answering, used as it is)`);
    else if (!options.interrupted()) {
      if (!options.postgresBin) throw new Error("PostgreSQL's server programs were not found");
      const postgres = await startThrowawayPostgres(options.postgresBin, runDir());
      started.push(postgres);
      env.TEST_DATABASE_URL = postgres.url;
      report.push(
        `PostgreSQL: throwaway cluster at ${postgres.url} (${why(probe.postgres, wanted.databaseUrl)})`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, report, dir, stop };
}
