import type { HttpFloor } from './system/http-floor';
import type { LoadTally } from './load/hookline-load';
import type { MeasuredWindow } from './load/measure';
import type { LatencySummary } from './stats';
import type { PhaseUsage } from './system/usage-probe';
import type { StrandedHooks } from './stranded';
import type { SettledWorker } from './system/memory-settle';
import type { ProfileSummary } from './system/profile-summary';

export interface PhaseResult extends MeasuredWindow {
  readonly usage?: PhaseUsage;
  readonly tally?: LoadTally;
  /** Only when events were still missing after the drain: where they are stuck. */
  readonly stranded?: StrandedHooks;
}

export interface IdleWorker {
  readonly pid: number;
  readonly attachedHooks: number;
  readonly redisConnections: number;
  /** Absent when MONITOR could not be turned on (see watchClients). */
  readonly commandsPerSecond?: number;
  readonly byCommand: Record<string, number>;
  readonly rssMb: number;
}

export interface IdleResult {
  readonly configuredHooks: number;
  readonly seconds: number;
  readonly workers: readonly IdleWorker[];
}

/** Closed loop for throughput, open loop at a fixed rate for latency, over one set of active hooks. */
export interface LoadCase {
  readonly activeHooks: number;
  readonly configuredHooks: number;
  readonly throughput: PhaseResult;
  readonly atRate: PhaseResult;
}

/**
 * The quiet shape: many hooks, each alone on its account and getting one event at a time, a lap of the round
 * robin apart. Throughput: `outstanding` events in flight in all (QuietLoop); at rate: `rate` per second.
 */
export interface QuietCase extends LoadCase {
  readonly outstanding: number;
  readonly rate: number;
  /** Between two events of one hook in the open loop: quiet hooks / rate. */
  readonly secondsBetweenEvents: number;
}

/** The busy hooks' open loop, published through the HTTP API (the tier a process of its own). */
export interface HttpPhase extends PhaseResult {
  readonly activeHooks: number;
  readonly configuredHooks: number;
  readonly rate: number;
  readonly tier: {
    /** Events the tier answered 202 within the window (its CPU is read at the same instants). */
    readonly accepted: number;
    readonly acceptedPerSecond: number;
    /** The tier's CPU µs over the window / `accepted`; absent if its CPU could not be read. */
    readonly cpuMicrosPerAccepted?: number;
    /** From the moment each event was due to its 202 answer, for answers within the window. */
    readonly answer?: LatencySummary;
    /** The tier's Redis connections and resident memory at the end of the window. */
    readonly redisConnections: number;
    readonly rssMb: number;
  };
  /** The tier's reference at the same rate: Fastify and one Redis command per event (system/http-floor.ts). */
  readonly floor?: HttpFloor;
}

/** BullMQ alone (load/bullmq-alone.ts): hookline's queues, jobs and Worker options, a no-op processor. */
export interface BullmqAlone {
  /** Setting up the one-queue measurement: `Queue.addBulk`, 1,000 jobs per call. */
  readonly addBulk: PhaseResult & { readonly jobs: number };
  /** One Worker draining pre-added jobs, one at a time; `ranDry` if the queue emptied within the window. */
  readonly oneQueue: PhaseResult & { readonly jobs: number; readonly ranDry: boolean };
  /** `Queue.add` in a closed loop over `queues` queues, one Worker each. */
  readonly manyQueues: PhaseResult & {
    readonly queues: number;
    readonly window: number;
    /** The same queues fed at each fixed rate: the reference for hookline's fixed-rate rows. */
    readonly atRates?: readonly BullmqAtRate[];
  };
}

/** BullMQ alone at one fixed rate (jobs added round robin over the many-queues measurement's queues). */
export type BullmqAtRate = PhaseResult & { readonly rate: number };

export interface TargetCheck {
  readonly target: string;
  readonly figure: string;
  readonly value: number;
  readonly limit: number;
  /**
   * value / limit: above 1 is good for "at least" targets, below 1 for "at most" targets. For a limit of 0
   * ("0 lost"): 0 when met, absent when not.
   */
  readonly ratioToTarget?: number;
  readonly met: boolean;
  /** Not hookline's figure but the most it could reach (BullMQ alone): `met` then means "reachable". */
  readonly bound?: boolean;
}

export interface BenchResults {
  readonly meta: {
    readonly startedAt: string;
    readonly quick: boolean;
    readonly node: string;
    readonly cpus: number;
    readonly redisVersion: string;
    readonly worker: string;
    readonly workers: number;
    readonly maxHooksPerWorker: number;
    readonly deadlineMs: number;
    readonly drainTimeoutMs: number;
    /** 1-minute load average when the run started: above ~0.5 something else was using the CPUs. */
    readonly loadAverageAtStart: number;
    readonly openRate: number;
    readonly quiet: { readonly hooks: number; readonly rate: number; readonly outstanding: number };
    readonly windows: { readonly singleHook: number; readonly manyHooks: number };
    readonly timing: { readonly warmupMs: number; readonly measureMs: number; readonly ceilingMs: number };
    readonly durationSeconds: number;
  };
  readonly ceiling: {
    readonly oneStream: PhaseResult;
    readonly manyStreams: PhaseResult & { readonly streams: number };
    readonly atRate: PhaseResult;
  };
  readonly bullmq: BullmqAlone & {
    /**
     * The most one hook could deliver if each job were followed by one request at the single-stream
     * ceiling: 1 / (1 / ceiling + 1 / BullMQ's one-queue rate), and that as a share of the ceiling.
     */
    readonly oneHookBound: { readonly perSecond: number; readonly ratioToCeiling: number };
  };
  readonly hookline: {
    /** One event in flight at a time: the latency of a single delivery with no queue ahead of it. */
    readonly oneHookUnloaded: PhaseResult;
    readonly oneHook: PhaseResult;
    /** Every active hook detached, then the open-loop rate from the first event, nothing excluded. */
    readonly coldStart: PhaseResult;
    readonly active: LoadCase;
    readonly configured: LoadCase;
    readonly idleHookCreation: { readonly created: number; readonly perSecond: number };
  };
  readonly hanging: LoadCase & { readonly hangingHooks: number };
  readonly quiet: QuietCase;
  readonly http: HttpPhase;
  readonly idle: {
    readonly beforeTraffic: IdleResult;
    readonly afterTraffic: IdleResult;
    /** Each worker's RSS right after the traffic and once V8 has given back what the load left behind. */
    readonly settled: readonly SettledWorker[];
  };
  /** Busy and quiet at fixed rates (100/s, 500/s) against their maximum. */
  readonly fixedRates?: readonly RateRow[];
  /** Issue 28: every process of the deployment at 1,000 events/s through the HTTP API, PostgreSQL included. */
  readonly wholeStack?: WholeStackRow;
  readonly targets: readonly TargetCheck[];
  readonly profile?: ProfileSummary;
}

/**
 * CPU per delivery of a phase, every process together (bench + Redis + workers + monitor, and the HTTP tier
 * where the phase publishes through it), in µs.
 */
/** One shape (busy or quiet hooks) at one fixed rate, against the same shape at its maximum. */
export interface RateRow {
  readonly shape: 'busy' | 'quiet';
  readonly rate: number;
  readonly phase: PhaseResult;
  /** CPU per delivery, every process (the bench's publisher and receivers included), µs. */
  readonly cpuMicrosPerDelivery?: number;
  /** The same without the bench's own CPU: what hookline's processes and Redis spend. */
  readonly hooklineMicrosPerDelivery?: number;
  /** hooklineMicrosPerDelivery ÷ the same at the shape's maximum (target ≤ 1.5). */
  readonly ratioToMaximum?: number;
}

export function cpuPerDelivery(p: PhaseResult): number | undefined {
  const c = p.usage?.cpuMicrosPerDelivery;
  return c?.workers !== undefined && p.perSecond > 0
    ? c.bench + c.redis + c.workers + (c.monitor ?? 0) + (c.http ?? 0)
    : undefined;
}

/**
 * The deployment as a whole at a steady rate: events published through the HTTP tier, delivered by the 2
 * workers, their history written by the monitor to PostgreSQL. CPU per delivery of every process it takes,
 * PostgreSQL's backends included, the bench's own (load generator and receivers) apart.
 */
export interface WholeStackRow {
  readonly rate: number;
  readonly activeHooks: number;
  readonly phase: PhaseResult;
  /** The PostgreSQL backends serving the workers, the monitor and the HTTP tier (found before the window). */
  readonly postgresBackends: number;
  readonly postgresMicrosPerDelivery?: number;
  /** HTTP tier + workers + monitor + Redis + PostgreSQL, µs per delivery. */
  readonly stackMicrosPerDelivery?: number;
}
