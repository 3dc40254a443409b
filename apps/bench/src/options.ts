import type { WorkerMode } from './system/worker-entry';

export interface BenchOptions {
  readonly quick: boolean;
  readonly profile: boolean;
  readonly workerMode: WorkerMode;
  readonly redisUrl: string;
  /** PostgreSQL for the history the bench's monitor writes (a schema of the bench's own, dropped after). */
  readonly databaseUrl: string;
  readonly outFile: string;
  readonly workers: number;
  readonly receiverServers: number;
  /** Hooks that get events; each alone on its account, so one event is one delivery. */
  readonly activeHooks: number;
  /**
   * All hooks configured in the large case: the active (busy) ones, the quiet ones, and the rest, which never
   * get an event.
   */
  readonly configuredHooks: number;
  /** Quiet hooks, each alone on its account: they get one event a lap apart (quietHooks / quietRate s). */
  readonly quietHooks: number;
  /** Events per second of the quiet open loop, round robin over the quiet hooks. */
  readonly quietRate: number;
  /** Events outstanding in all (not per hook) in the quiet closed loop. */
  readonly quietOutstanding: number;
  readonly idleHooksPerAccount: number;
  readonly hangingShare: number;
  /** HOOKLINE_DELIVERY_TIMEOUT_MS: short, so hanging hooks cost seconds, not minutes. */
  readonly deadlineMs: number;
  /** Events per second of the open-loop (latency) phases. */
  readonly openRate: number;
  /** Events kept outstanding per hook in the closed-loop (throughput) phases. */
  readonly singleHookWindow: number;
  readonly manyHooksWindow: number;
  readonly warmupMs: number;
  readonly measureMs: number;
  readonly ceilingMs: number;
  readonly idleMs: number;
  readonly createConcurrency: number;
  readonly drainTimeoutMs: number;
  /**
   * `--only=idle`: run the idle-fleet phase alone (its own Redis; nothing else of the bench); `--only=acks`:
   * the cost of replica acknowledgements alone (a primary and a replica of its own).
   */
  readonly only?: 'idle' | 'acks';
  /** Hooks configured in the idle-fleet phase (`--idle-hooks=N`). */
  readonly idleFleetHooks: number;
  /** How long the idle fleet is watched. */
  readonly idleFleetMs: number;
}

const FULL = {
  activeHooks: 1000,
  configuredHooks: 100_000,
  quietHooks: 20_000,
  quietRate: 1000,
  idleHooksPerAccount: 1000,
  openRate: 1000,
  warmupMs: 3000,
  measureMs: 8000,
  ceilingMs: 4000,
  idleMs: 10_000,
};

const QUICK: typeof FULL = {
  activeHooks: 100,
  configuredHooks: 5000,
  quietHooks: 2000,
  quietRate: 100,
  idleHooksPerAccount: 500,
  openRate: 500,
  warmupMs: 1000,
  measureMs: 3000,
  ceilingMs: 2000,
  idleMs: 3000,
};

export const USAGE = `Usage: pnpm bench [--quick] [--profile] [--worker=auto|dist|source] [--out=FILE]
  --quick     smaller sizes and shorter phases (about 2.5 minutes)
  --profile   run the workers under --cpu-prof and print where their CPU went
  --worker    the built worker (dist), its sources through tsx (source), or as the bench runs (auto)
  --only=idle the idle-fleet phase alone: N hooks on a Redis of its own, nothing to deliver, Redis
              commands/s and each process's share of a core (60 s; 10 s with --quick)
  --idle-hooks=N  hooks configured in the idle-fleet phase (default 100000)
  --only=acks what HOOKLINE_REDIS_REPLICA_ACKS=1 costs against 0 per publish and per delivery, on a
              primary and a replica of its own (1000 events each; 300 with --quick)
Environment: REDIS_URL (default redis://127.0.0.1:6379), DATABASE_URL (the history's PostgreSQL; default
  postgres://postgres@127.0.0.1:5432/test, a schema of the bench's own in it)`;

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions | string {
  const flags = new Map<string, string | undefined>(
    // `pnpm bench -- --quick` hands the script a bare `--` first.
    argv
      .filter((a) => a !== '--')
      .map((a) => {
        const [name, ...value] = a.replace(/^--/, '').split('=');
        return [name!, value.length > 0 ? value.join('=') : undefined];
      }),
  );
  const known = new Set(['quick', 'profile', 'worker', 'out', 'help', 'only', 'idle-hooks']);
  const unknown = [...flags.keys()].filter((f) => !known.has(f));
  if (flags.has('help') || unknown.length > 0) return USAGE;
  const workerMode = (flags.get('worker') ?? 'auto') as WorkerMode;
  if (!['auto', 'dist', 'source'].includes(workerMode)) return USAGE;
  const only = flags.get('only');
  if (only !== undefined && only !== 'idle' && only !== 'acks') return USAGE;
  const idleFleetHooks = Number(flags.get('idle-hooks') ?? 100_000);
  if (!Number.isInteger(idleFleetHooks) || idleFleetHooks < 0) return USAGE;
  const quick = flags.has('quick');
  const sizes = quick ? QUICK : FULL;
  const workers = 2;
  return {
    quick,
    profile: flags.has('profile'),
    workerMode,
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    outFile: flags.get('out') ?? 'artifacts/bench/results.json',
    workers,
    receiverServers: 4,
    ...sizes,
    // As many hooks with an event at once as the busy closed loop has busy hooks: they fit the fleet's slots.
    quietOutstanding: sizes.activeHooks,
    hangingShare: 0.1,
    deadlineMs: 1000,
    singleHookWindow: 64,
    manyHooksWindow: 4,
    createConcurrency: 50,
    drainTimeoutMs: 20_000,
    ...(only ? { only: only as 'idle' | 'acks' } : {}),
    idleFleetHooks,
    idleFleetMs: quick ? 10_000 : 60_000,
  };
}

/**
 * HOOKLINE_WORKER_MAX_HOOKS, the hooks one worker process delivers to at once: every busy hook must fit in
 * the fleet at once, or the hooks left over wait for a slot and the busy phases would measure that wait
 * instead of delivery. 20% headroom covers an uneven split of hooks between processes.
 */
export function maxHooksPerWorker(options: BenchOptions): number {
  return Math.ceil((options.activeHooks * 1.2) / options.workers);
}
