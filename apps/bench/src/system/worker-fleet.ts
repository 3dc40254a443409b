import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { REPO_ROOT } from '../repo-root';
import { cpuSeconds, redisConnectionsOf, rssMb } from './proc';
import type { WorkerEntry } from './worker-entry';

export interface WorkerSample {
  readonly pid: number;
  readonly attachedHooks: number;
  readonly delivered: number;
  readonly redisConnections: number;
  readonly rssMb: number;
  readonly cpuSeconds: number;
}

interface RunningWorker {
  readonly child: ChildProcess;
  readonly pid: number;
  metricsPort: number;
  tail: string;
  readonly exited: Promise<number | null>;
}

const TAIL_CHARS = 16_384;

function metric(text: string, pattern: RegExp): number {
  let total = 0;
  for (const m of text.matchAll(pattern)) total += Number(m[1]);
  return total;
}

/** Real worker processes, as production runs them, plus what the bench reads about each. */
export class WorkerFleet {
  private constructor(
    private readonly workers: readonly RunningWorker[],
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
    const workers = Array.from({ length: count }, () => {
      const child = spawn(process.execPath, [...profiling, ...entry.nodeArgs, entry.script], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const worker: RunningWorker = {
        child,
        pid: child.pid!,
        metricsPort: 0,
        tail: '',
        exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
      };
      const onData = (chunk: Buffer) => {
        worker.tail = (worker.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
        const port = /"metricsPort":(\d+)/.exec(worker.tail)?.[1];
        if (!worker.metricsPort && port) worker.metricsPort = Number(port);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      return worker;
    });
    const fleet = new WorkerFleet(workers, redisPort);
    await Promise.all(workers.map((w) => fleet.started(w)));
    return fleet;
  }

  get pids(): number[] {
    return this.workers.map((w) => w.pid);
  }

  async sample(): Promise<WorkerSample[]> {
    return Promise.all(
      this.workers.map(async (w) => {
        const res = await request(`http://127.0.0.1:${w.metricsPort}/metrics`);
        const text = await res.body.text();
        return {
          pid: w.pid,
          attachedHooks: metric(text, /^hookline_worker_attached_hooks(?:\{[^}]*\})? (\d+)/gm),
          delivered: metric(text, /^hookline_deliveries_total\{[^}]*outcome="delivered"[^}]*\} (\d+)/gm),
          redisConnections: (await redisConnectionsOf(w.pid, this.redisPort)).length,
          rssMb: await rssMb(w.pid),
          cpuSeconds: await cpuSeconds(w.pid),
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
    for (const w of this.workers) if (w.child.exitCode === null) w.child.kill('SIGTERM');
    await Promise.all(
      this.workers.map(async (w) => {
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
        throw new Error(`worker ${w.pid} did not start; it printed:\n${w.tail}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
