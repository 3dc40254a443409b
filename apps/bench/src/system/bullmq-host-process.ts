import { fork, type ChildProcess } from 'node:child_process';
import { extname, join } from 'node:path';
import { REPO_ROOT } from '../repo-root';
import type { FromHost, HostSettings, ToHost } from './bullmq-host-protocol';
import { redisConnectionsOf, rssMb } from './proc';
import type { WorkerSample } from './worker-fleet';

// Hosts still running, so that the bench's cleanup (also on Ctrl-C) stops them before removing the keys.
const live = new Set<BullmqHost>();

export async function stopBullmqHosts(): Promise<void> {
  await Promise.all([...live].map((host) => host.stop()));
}

/** The bench's handle on its BullMQ host process: completions as they come, samples like a worker's. */
export class BullmqHost {
  private completedJobs = 0;
  private firstFailure?: string;
  private readonly listeners = new Set<(queueIndex: number, count: number) => void>();
  private readonly signalled = new Set<number>();
  private readonly exited: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly queues: number,
    private readonly redisPort: number,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', resolve));
    live.add(this);
    void this.exited.then(() => live.delete(this));
    child.on('message', (message: FromHost) => {
      if (message.type === 'completed') {
        const { counts } = message;
        for (let i = 0; i < counts.length; i += 2) {
          this.completedJobs += counts[i + 1]!;
          for (const l of this.listeners) l(counts[i]!, counts[i + 1]!);
        }
      } else if (message.type === 'failed') this.firstFailure ??= message.message;
    });
  }

  /** Forks the host and returns once it is connected (it starts draining the queues at once). */
  static async start(settings: HostSettings, redisPort: number): Promise<BullmqHost> {
    // From source (tsx) the host is a .ts file and needs tsx too; built, it is .js.
    const ext = extname(__filename);
    const child = fork(join(__dirname, `bullmq-host${ext}`), [], {
      cwd: REPO_ROOT,
      execArgv: ext === '.ts' ? ['--require', 'tsx/cjs'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const host = new BullmqHost(child, settings.hookIds.length, redisPort);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromHost) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'failed') reject(new Error(`BullMQ host: ${message.message}`));
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`BullMQ host exited (${code}) before it was ready`)));
      child.send({ type: 'start', settings } satisfies ToHost);
    }).catch(async (error: unknown) => {
      await host.stop();
      throw error;
    });
    return host;
  }

  get pids(): number[] {
    return [this.pid];
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Tells the host these queues got jobs; sent once per event-loop turn for every queue signalled in it. */
  signal(queueIndex: number): void {
    if (this.signalled.size === 0)
      setImmediate(() => {
        const queues = [...this.signalled];
        this.signalled.clear();
        if (this.child.connected) this.child.send({ type: 'signal', queues } satisfies ToHost);
      });
    this.signalled.add(queueIndex);
  }

  /** Jobs the host completed so far (as reported: at most a few ms behind). */
  get completed(): number {
    return this.completedJobs;
  }

  get failure(): string | undefined {
    return this.firstFailure;
  }

  onCompleted(listener: (queueIndex: number, count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The host as the usage probe samples a worker process: `delivered` counts completed jobs. */
  async sample(sockets = true): Promise<WorkerSample[]> {
    return [
      {
        pid: this.pid,
        attachedHooks: this.queues,
        delivered: this.completedJobs,
        ...(sockets ? { redisConnections: (await redisConnectionsOf(this.pid, this.redisPort)).length } : {}),
        rssMb: await rssMb(this.pid),
      },
    ];
  }

  /** Asks the host to stop taking jobs and exit; kills it if it has not within `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      if (this.child.connected) this.child.send({ type: 'stop' } satisfies ToHost);
      else this.child.kill('SIGTERM');
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
