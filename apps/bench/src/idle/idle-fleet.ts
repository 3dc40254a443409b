import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { redisKeys } from '@hookline/redis';
import { sleep } from '../clock';
import { dropBenchSchema } from '../history/drop-schema';
import type { BenchOptions } from '../options';
import { REPO_ROOT } from '../repo-root';
import { createIdleHooks, createWorld } from '../setup';
import { HttpTier } from '../system/http-tier';
import { cpuSecondsNow } from '../system/proc';
import { commandStats, commandStatsDelta } from '../system/redis-activity';
import { chooseWorkerEntry } from '../system/worker-entry';
import { WorkerFleet } from '../system/worker-fleet';
import { OwnRedis } from './own-redis';

/** What an idle fleet costs: hooks configured, nothing to deliver. */
export interface IdleFleetResult {
  readonly configuredHooks: number;
  /** How long creating them took (store.hooks.create, 200 at a time), and Redis's memory once they existed. */
  readonly creation: { readonly seconds: number; readonly perSecond: number; readonly redisMemoryMb: number };
  readonly seconds: number;
  /** The watchdog's one walk over every hook at start (before the idle window). */
  readonly walkSeconds: number;
  /** Every command Redis ran, per second (commands inside scripts counted one by one, as INFO does). */
  readonly redisCommandsPerSecond: number;
  readonly byCommand: Record<string, number>;
  /** Percent of one core, per process. */
  readonly cpuPercent: {
    readonly workers: readonly number[];
    readonly monitor: number;
    readonly http: number;
    readonly redis: number;
    /** Every hookline process together (workers, monitor, HTTP tier). */
    readonly hookline: number;
  };
}

/** The hooks are created this many per account, as an operator with many hooks per customer would. */
const HOOKS_PER_ACCOUNT = 1000;
/**
 * Settling after the walk: start-up work is not idle work. The walk over every hook grows the monitor's heap
 * (≈ 100 MB with 100,000 hooks); ≈ 8–10 s after its allocations stop, V8's memory reducer shrinks it with a
 * few compacting collections (≈ 100 ms of CPU, once; seen with --trace-gc), which a window starting 5 s after
 * the walk caught and counted as idle cost.
 */
const SETTLE_MS = 20_000;
/** The walk over every hook goes at up to 5,000 hooks a second: 1,000,000 hooks in under 4 minutes. */
const WALK_WITHIN_MS = 600_000;

/**
 * The idle phase: a Redis of its own, `idleFleetHooks` hooks created through the store, the production
 * processes (2 workers, the monitor, the HTTP tier) started on it, then nothing at all for `idleFleetMs`,
 * reading INFO commandstats and each process's CPU at both ends.
 */
export async function idleFleet(
  options: BenchOptions,
  progress: (line: string) => void,
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<IdleFleetResult> {
  const own = await OwnRedis.start();
  const world = createWorld(own.url);
  const historySchema = `bench_${world.prefix.replace(/[^a-z0-9]/g, '_')}`;
  let fleet: WorkerFleet | undefined;
  let tier: HttpTier | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await fleet?.stop().catch(() => undefined);
      await tier?.stop().catch(() => undefined);
      await world.producer.close().catch(() => undefined);
      world.redis.disconnect();
      world.producerRedis.disconnect();
      await own.stop().catch(() => undefined);
      await dropBenchSchema(options.databaseUrl, historySchema).catch(() => undefined);
    })());
  onCleanup(cleanup);
  try {
    const count = options.idleFleetHooks;
    progress(`idle fleet: own Redis on port ${own.port}; creating ${count} hooks`);
    const creationStarted = Date.now();
    const created = await createIdleHooks(world, fakeReceivers, count, HOOKS_PER_ACCOUNT, 200);
    const creation = {
      seconds: round((Date.now() - creationStarted) / 1000),
      perSecond: created.perSecond,
      redisMemoryMb: round(usedMemory(await world.redis.info('memory')) / 1e6),
    };
    progress(
      `  ${created.perSecond} hooks/s, ${creation.seconds} s; ${await world.redis.scard(redisKeys(world.prefix).allHooks())} in the set; Redis uses ${creation.redisMemoryMb} MB`,
    );
    const entry = chooseWorkerEntry(options.workerMode);
    const shared = {
      REDIS_URL: own.url,
      HOOKLINE_QUEUE_PREFIX: world.prefix,
      HOOKLINE_SECRET_KEY: world.secretKeyHex,
      DATABASE_URL: options.databaseUrl,
      HOOKLINE_DATABASE_SCHEMA: historySchema,
      LOG_LEVEL: 'info',
    };
    fleet = await WorkerFleet.start(
      entry,
      options.workers,
      { ...shared, HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8', HOOKLINE_METRICS_PORT: '0' },
      own.port,
    );
    await mkdir(join(REPO_ROOT, 'artifacts', 'bench'), { recursive: true });
    tier = await HttpTier.start(
      entry,
      shared,
      own.port,
      join(REPO_ROOT, 'artifacts', 'bench', 'idle-http.log'),
    );
    // A monitor taking the watchdog over walks every hook once (to index work from before the index): that
    // is start-up work, over when the first fleet figures are written, and the idle window starts after it.
    const walkStarted = Date.now();
    const figures = redisKeys(world.prefix).fleetFigures();
    while ((await world.redis.hget(figures, 'at')) === null) {
      if (Date.now() - walkStarted > WALK_WITHIN_MS) throw new Error('the watchdog never finished its walk');
      await sleep(1000);
    }
    const walkSeconds = round((Date.now() - walkStarted) / 1000);
    progress(`  the monitor's walk over every hook took ${walkSeconds} s`);
    await sleep(SETTLE_MS);
    const pids = { workers: fleet.pids, monitor: fleet.monitorPid, http: tier.pid, redis: own.pid };
    const all = [...pids.workers, pids.monitor, pids.http, pids.redis];
    progress(`  watching the idle fleet for ${options.idleFleetMs / 1000} s`);
    const cpuBefore = all.map((pid) => cpuSecondsNow(pid) ?? 0);
    const statsBefore = await commandStats(own.redis);
    const began = Date.now();
    await sleep(options.idleFleetMs);
    const statsAfter = await commandStats(own.redis);
    const seconds = (Date.now() - began) / 1000;
    const share = all.map((pid, i) => round((((cpuSecondsNow(pid) ?? 0) - cpuBefore[i]!) / seconds) * 100));
    // The two INFO calls themselves are the bench's, not hookline's.
    const delta = commandStatsDelta(statsBefore, statsAfter);
    const info = delta.get('info');
    if (info) info.calls = Math.max(0, info.calls - 1);
    const byCommand: Record<string, number> = {};
    let total = 0;
    for (const [name, { calls }] of [...delta].sort((a, b) => b[1].calls - a[1].calls)) {
      if (calls === 0) continue;
      byCommand[name] = round(calls / seconds);
      total += calls;
    }
    const workers = share.slice(0, pids.workers.length);
    const [monitor, http, redis] = share.slice(pids.workers.length) as [number, number, number];
    return {
      configuredHooks: count,
      creation,
      seconds: round(seconds),
      walkSeconds,
      redisCommandsPerSecond: round(total / seconds),
      byCommand,
      cpuPercent: {
        workers,
        monitor,
        http,
        redis,
        hookline: round(workers.reduce((a, b) => a + b, 0) + monitor + http),
      },
    };
  } finally {
    await cleanup();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** INFO memory's `used_memory`, bytes. */
const usedMemory = (info: string) => Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN);

// The idle hooks never get an event: their URL is never called, only stored.
const fakeReceivers = { idleUrl: (i: number) => `http://127.0.0.1:9/idle/${i}` } as Parameters<
  typeof createIdleHooks
>[1];

/** The phase as a table, for the terminal. */
export function formatIdleFleet(r: IdleFleetResult): string {
  const lines = [
    `idle fleet: ${r.configuredHooks} hooks configured, nothing to deliver, ${r.seconds} s (from ${SETTLE_MS / 1000} s after the monitor's ${r.walkSeconds} s walk over every hook at start)`,
    `  creating the hooks took ${r.creation.seconds} s (${r.creation.perSecond} hooks/s); Redis then used ${r.creation.redisMemoryMb} MB`,
    `  Redis commands/s: ${r.redisCommandsPerSecond} (target ≤ 50)`,
    ...Object.entries(r.byCommand).map(([name, perSecond]) => `    ${name.padEnd(24)} ${perSecond}/s`),
    `  % of a core: workers ${r.cpuPercent.workers.join(', ')}; monitor ${r.cpuPercent.monitor}; HTTP tier ${r.cpuPercent.http}; all hookline ${r.cpuPercent.hookline} (target ≤ 1); Redis ${r.cpuPercent.redis}`,
  ];
  return lines.join('\n');
}
