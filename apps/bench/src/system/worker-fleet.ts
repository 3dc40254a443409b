import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { REPO_ROOT } from '../repo-root';
import { redisConnectionsOf, rssMb } from './proc';
import type { WorkerEntry } from './worker-entry';

export interface WorkerSample {
  readonly pid: number;
  /** From the worker's /metrics; absent when it did not answer in time (its event loop was saturated). */
  readonly attachedHooks?: number;
  readonly delivered?: number;
  /** Full (mark-compact) collections the worker ran so far, from its /metrics. */
  readonly majorGcs?: number;
  /** Absent when the sample was taken without reading the sockets. */
  readonly redisConnections?: number;
  readonly rssMb: number;
}

interface RunningWorker {
  readonly child: ChildProcess;
  readonly pid: number;
  metricsPort: number;
  tail: string;
  readonly exited: Promise<number | null>;
}

const TAIL_CHARS = 16_384;
// A worker whose event loop is saturated answers /metrics late; the sample goes on without those figures.
const METRICS_WITHIN_MS = 1_500;

function metric(text: string, pattern: RegExp): number {
  let total = 0;
  for (const m of text.matchAll(pattern)) total += Number(m[1]);
  return total;
}

function spawnService(
  nodeArgs: readonly string[],
  script: string,
  env: Record<string, string>,
): RunningWorker {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service: RunningWorker = {
    child,
    pid: child.pid!,
    metricsPort: 0,
    tail: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  const onData = (chunk: Buffer) => {
    service.tail = (service.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    const port = /"metricsPort":(\d+)/.exec(service.tail)?.[1];
    if (!service.metricsPort && port) service.metricsPort = Number(port);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return service;
}

/**
 * Real worker processes, as production runs them, plus what the bench reads about each; and the suspension
 * monitor that production runs beside them (its CPU is reported on its own, not as a worker's).
 */
export class WorkerFleet {
  private constructor(
    private readonly workers: readonly RunningWorker[],
    private readonly monitor: RunningWorker,
    private readonly redisPort: number,
  ) {}

  static async start(
    entry: WorkerEntry,
    count: number,
    env: Record<string, string>,
    redisPort: number,
    profileDir?: string,
  ): Promise<WorkerFleet> {
    const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const workers = Array.from({ length: count }, () =>
      spawnService([...profiling, ...entry.nodeArgs], entry.script, env),
    );
    const monitor = spawnService(entry.nodeArgs, entry.monitorScript, env);
    const fleet = new WorkerFleet(workers, monitor, redisPort);
    await Promise.all([...workers, monitor].map((w) => fleet.started(w)));
    return fleet;
  }

  get monitorPid(): number {
    return this.monitor.pid;
  }

  get pids(): number[] {
    return this.workers.map((w) => w.pid);
  }

  /**
   * `sockets: false` skips counting Redis connections: that parses the kernel's whole TCP table on the bench's
   * event loop (tens of ms with thousands of sockets), which would stall the publisher, and so show up as
   * latency, if done inside a measured window.
   */
  async sample(sockets = true): Promise<WorkerSample[]> {
    return Promise.all(
      this.workers.map(async (w) => {
        const text = await request(`http://127.0.0.1:${w.metricsPort}/metrics`, {
          signal: AbortSignal.timeout(METRICS_WITHIN_MS),
        }).then(
          (res) => res.body.text(),
          () => undefined,
        );
        return {
          pid: w.pid,
          ...(text !== undefined
            ? {
                attachedHooks: metric(text, /^hookline_worker_attached_hooks(?:\{[^}]*\})? (\d+)/gm),
                delivered: metric(
                  text,
                  /^hookline_deliveries_total\{[^}]*outcome="delivered"[^}]*\} (\d+)/gm,
                ),
                majorGcs: metric(
                  text,
                  /^hookline_process_nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\} (\d+)/gm,
                ),
              }
            : {}),
          ...(sockets ? { redisConnections: (await redisConnectionsOf(w.pid, this.redisPort)).length } : {}),
          rssMb: await rssMb(w.pid),
        };
      }),
    );
  }

  /** Redis client address (as MONITOR names it) -> the worker pid that holds the connection. */
  async redisClients(): Promise<Map<string, number>> {
    const owners = new Map<string, number>();
    for (const w of this.workers)
      for (const address of await redisConnectionsOf(w.pid, this.redisPort)) owners.set(address, w.pid);
    return owners;
  }

  /** SIGTERM (the graceful path, which also writes CPU profiles), then SIGKILL for any that hang. */
  async stop(graceMs = 20_000): Promise<void> {
    const all = [...this.workers, this.monitor];
    for (const w of all) if (w.child.exitCode === null) w.child.kill('SIGTERM');
    await Promise.all(
      all.map(async (w) => {
        const timer = setTimeout(() => w.child.kill('SIGKILL'), graceMs);
        await w.exited;
        clearTimeout(timer);
      }),
    );
  }

  private async started(w: RunningWorker): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!w.metricsPort) {
      if (w.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`process ${w.pid} did not start; it printed:\n${w.tail}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
