import type { Redis } from 'ioredis';
import type { WindowProbe } from '../load/measure';
import { cpuSecondsNow, machineBusySeconds } from './proc';
import {
  commandStats,
  commandStatsDelta,
  connectionsReceived,
  redisCpuSeconds,
  type CommandStats,
} from './redis-activity';
import type { WorkerSample } from './worker-fleet';

export interface WorkerUsage {
  readonly pid: number;
  /** 100 = one core busy for the whole window (read from /proc at its edges; absent if the process had gone). */
  readonly cpuPercent?: number;
  /** This process's CPU µs per delivery timed in the window (all processes' deliveries, not only its own). */
  readonly cpuMicrosPerDelivery?: number;
  /** Absent when a /metrics answer was missing (see WorkerSample). */
  readonly deliveredPerSecond?: number;
  readonly attachedHooks?: number;
  readonly redisConnections?: number;
  readonly rssMb?: number;
}

export interface PhaseUsage {
  /**
   * `others` is the machine's busy time not spent by the bench, Redis or the workers: anything above a few
   * percent means something else shared the CPUs and the figures of this window are low.
   */
  readonly cpuPercent: {
    readonly bench: number;
    readonly redis: number;
    /** The suspension monitor; absent where none runs (the BullMQ-alone rows). */
    readonly monitor?: number;
    /** The HTTP tier, in the one phase that publishes through it. */
    readonly http?: number;
    /** Absent when the workers' CPU could not be read in time (it would count as others'). */
    readonly others?: number;
  };
  readonly workers: readonly WorkerUsage[];
  /**
   * CPU µs spent per delivery timed in the window, by part. Unlike deliveries/s, this cost barely moves when
   * other programs share the machine, so it is the figure to compare between runs and against a budget: on
   * 2 cores, 5,000 deliveries/s leave 400 µs per delivery for everything together.
   */
  readonly cpuMicrosPerDelivery: {
    readonly bench: number;
    readonly redis: number;
    /** Absent when a worker sample came too late: unknown, not zero. */
    readonly workers?: number;
    readonly monitor?: number;
    readonly http?: number;
  };
  /** CPU seconds of the HTTP tier over the window, where one was given (for its CPU per accepted event). */
  readonly httpCpuSeconds?: number;
  /**
   * Connections Redis accepted during the window (INFO stats `total_connections_received`, whole server), and
   * that divided by the deliveries timed in it. A delivery that opens no connection keeps this at 0.
   */
  readonly redisConnectionsOpened: number;
  readonly redisConnectionsPerDelivery: number;
  /** Server-wide INFO commandstats over the window, divided by the deliveries timed in it. */
  readonly redisPerDelivery: {
    readonly calls: number;
    readonly cpuMicros: number;
    readonly top: readonly { command: string; calls: number; cpuMicros: number }[];
  };
}

interface Mark {
  readonly bench: NodeJS.CpuUsage;
  readonly redisCpu: number;
  readonly machine: number;
  readonly stats: CommandStats;
  /** CPU seconds of each worker (by `pids`) and of the monitor, read at the window's edge. */
  readonly workerCpu: readonly (number | undefined)[];
  readonly monitorCpu?: number | undefined;
  readonly httpCpu?: number | undefined;
  readonly connections: number;
  readonly workers: readonly WorkerSample[];
}

// With a thousand hooks attached, reading every worker's sockets from /proc can take longer than the
// window itself on a busy 2-core machine; a sample that is late is reported as missing instead of stalling
// the phase.
const SAMPLE_WITHIN_MS = 3000;

/** Processes whose CPU counts as the workers': hookline's WorkerFleet, or the BullMQ-alone host. */
export interface SampledWorkers {
  readonly pids: readonly number[];
  /** The suspension monitor, where one runs. */
  readonly monitorPid?: number;
  /** `sockets: false`: cheap enough to take inside a measured window (see WorkerFleet.sample). */
  sample(sockets?: boolean): Promise<WorkerSample[]>;
}

async function sampleWithin(fleet: SampledWorkers | undefined, sockets: boolean): Promise<WorkerSample[]> {
  if (!fleet) return [];
  const late = new Promise<WorkerSample[]>((resolve) =>
    setTimeout(() => resolve([]), SAMPLE_WITHIN_MS).unref(),
  );
  return Promise.race([fleet.sample(sockets), late]);
}

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * CPU of every process involved and Redis's work per delivery, over one measured window. `httpPid`: the HTTP
 * tier's process, where the phase publishes through it.
 */
export function usageProbe(redis: Redis, fleet?: SampledWorkers, httpPid?: number): WindowProbe<PhaseUsage> {
  return {
    async begin(): Promise<Mark> {
      return {
        workerCpu: fleet?.pids.map(cpuSecondsNow) ?? [],
        ...(fleet?.monitorPid !== undefined ? { monitorCpu: cpuSecondsNow(fleet.monitorPid) } : {}),
        ...(httpPid !== undefined ? { httpCpu: cpuSecondsNow(httpPid) } : {}),
        bench: process.cpuUsage(),
        connections: await connectionsReceived(redis),
        redisCpu: await redisCpuSeconds(redis),
        machine: await machineBusySeconds(),
        stats: await commandStats(redis),
        // The window is open: no socket count here, it would stall the publisher (see WorkerFleet.sample).
        workers: await sampleWithin(fleet, false),
      };
    },
    async end(mark, deliveries, seconds): Promise<PhaseUsage> {
      const begun = mark as Mark;
      const workerCpu = fleet?.pids.map(cpuSecondsNow) ?? [];
      const monitorCpu = fleet?.monitorPid !== undefined ? cpuSecondsNow(fleet.monitorPid) : undefined;
      const httpCpu = httpPid !== undefined ? cpuSecondsNow(httpPid) : undefined;
      const bench = process.cpuUsage(begun.bench);
      const [connections, machine, redisCpu, stats, workers] = await Promise.all([
        connectionsReceived(redis),
        machineBusySeconds(),
        redisCpuSeconds(redis),
        commandStats(redis),
        sampleWithin(fleet, true),
      ]);
      const delta = [...commandStatsDelta(begun.stats, stats)].filter(([name]) => name !== 'info');
      const per = (v: number) => (deliveries > 0 ? v / deliveries : 0);
      const benchCpu = (bench.user + bench.system) / 1e6;
      const redisUsed = redisCpu - begun.redisCpu;
      const used = (end: number | undefined, start: number | undefined) =>
        end !== undefined && start !== undefined ? end - start : undefined;
      const perWorker = workerCpu.map((end, i) => used(end, begun.workerCpu[i]));
      const workersRead = perWorker.every((v) => v !== undefined);
      const workersUsed = perWorker.reduce<number>((sum, v) => sum + (v ?? 0), 0);
      const monitorUsed = used(monitorCpu, begun.monitorCpu);
      const httpUsed = used(httpCpu, begun.httpCpu);
      const others = Math.max(
        0,
        machine - begun.machine - benchCpu - redisUsed - workersUsed - (monitorUsed ?? 0) - (httpUsed ?? 0),
      );
      const opened = connections - begun.connections;
      return {
        cpuPercent: {
          bench: round((benchCpu / seconds) * 100),
          redis: round((redisUsed / seconds) * 100),
          ...(monitorUsed !== undefined ? { monitor: round((monitorUsed / seconds) * 100) } : {}),
          ...(httpUsed !== undefined ? { http: round((httpUsed / seconds) * 100) } : {}),
          ...(workersRead ? { others: round((others / seconds) * 100) } : {}),
        },
        cpuMicrosPerDelivery: {
          bench: Math.round(per(benchCpu * 1e6)),
          redis: Math.round(per(redisUsed * 1e6)),
          ...(workersRead ? { workers: Math.round(per(workersUsed * 1e6)) } : {}),
          ...(monitorUsed !== undefined ? { monitor: Math.round(per(monitorUsed * 1e6)) } : {}),
          ...(httpUsed !== undefined ? { http: Math.round(per(httpUsed * 1e6)) } : {}),
        },
        ...(httpUsed !== undefined ? { httpCpuSeconds: Math.round(httpUsed * 1000) / 1000 } : {}),
        redisConnectionsOpened: opened,
        redisConnectionsPerDelivery: round(per(opened), 5),
        // Every process, whether or not its (slower) sample of hooks, sockets and memory came in time.
        workers: (fleet?.pids ?? []).map((pid, i) => {
          const w = workers.find((sample) => sample.pid === pid);
          const before = begun.workers.find((sample) => sample.pid === pid);
          const cpu = perWorker[i];
          return {
            pid,
            ...(cpu !== undefined
              ? { cpuPercent: round((cpu / seconds) * 100), cpuMicrosPerDelivery: Math.round(per(cpu * 1e6)) }
              : {}),
            ...(w?.delivered !== undefined && before?.delivered !== undefined
              ? { deliveredPerSecond: Math.round((w.delivered - before.delivered) / seconds) }
              : {}),
            ...(w?.attachedHooks !== undefined ? { attachedHooks: w.attachedHooks } : {}),
            ...(w?.redisConnections !== undefined ? { redisConnections: w.redisConnections } : {}),
            ...(w ? { rssMb: w.rssMb } : {}),
          };
        }),
        redisPerDelivery: {
          calls: round(per(delta.reduce((sum, [, s]) => sum + s.calls, 0))),
          cpuMicros: round(per(delta.reduce((sum, [, s]) => sum + s.usec, 0))),
          top: delta
            .sort((a, b) => b[1].usec - a[1].usec)
            .slice(0, 20)
            .map(([command, s]) => ({
              command,
              calls: round(per(s.calls), 2),
              cpuMicros: round(per(s.usec)),
            })),
        },
      };
    },
  };
}
