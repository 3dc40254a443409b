import { createRedis, HookJobs, redisKeys, type ActiveJob } from '@hookline/redis';
import type { FromHost, HostSettings, ToHost } from './bullmq-host-protocol';

// The BullMQ host: a process of its own that moves jobs through hook queues the way hookline's workers do —
// BullMQ's own scripts through its queue backend (moveToActive, then moveToFinished fetching the next job),
// on one shared connection, no Worker — with a no-op in place of everything hookline adds (the ready set and
// leases, the attempt ledger, the HTTP request, the history record). It runs apart from the bench so that its
// CPU is counted as a worker's, and so that the producer (the bench) and the host never wait for each other.

// Completions are sent in batches: one IPC message per job would cost more than the no-op itself.
const FLUSH_EVERY_MS = 5;
const DONE = { kind: 'completed', value: 'delivered' } as const;

const send = (message: FromHost) => {
  if (process.connected) process.send?.(message);
};

class Host {
  private readonly redis;
  private readonly jobs: HookJobs;
  private readonly pending = new Map<number, number>();
  private readonly draining = new Set<number>();
  private readonly again = new Set<number>();
  private readonly drains = new Set<Promise<void>>();
  private readonly flush: NodeJS.Timeout;
  private taken = 0;
  private running = true;

  constructor(private readonly settings: HostSettings) {
    this.redis = createRedis(settings.redisUrl);
    this.jobs = new HookJobs(this.redis, redisKeys(settings.prefix), settings.lockDurationMs);
    this.flush = setInterval(() => {
      if (this.pending.size === 0) return;
      send({ type: 'completed', counts: [...this.pending].flat() });
      this.pending.clear();
    }, FLUSH_EVERY_MS);
  }

  async ready(): Promise<void> {
    await this.redis.ping();
    this.signal(this.settings.hookIds.map((_, i) => i)); // jobs added before the start
  }

  signal(queues: readonly number[]): void {
    for (const index of queues) {
      if (this.draining.has(index)) this.again.add(index);
      else {
        const drain = this.drain(index).catch((error: unknown) =>
          send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
        );
        this.drains.add(drain);
        void drain.finally(() => this.drains.delete(drain));
      }
    }
  }

  // One queue's jobs in order until it is empty, as a worker's holding drains a hook; a signal that arrives
  // meanwhile makes it look once more.
  private async drain(index: number): Promise<void> {
    const hookId = this.settings.hookIds[index]!;
    this.draining.add(index);
    try {
      do {
        this.again.delete(index);
        this.taken += 1;
        const offer = await this.jobs.take(hookId, `bench:${this.taken}`);
        let job: ActiveJob | undefined = offer.kind === 'job' ? offer.job : undefined;
        while (job && this.running) {
          job = await this.jobs.finish(job, DONE, true);
          this.pending.set(index, (this.pending.get(index) ?? 0) + 1);
        }
      } while (this.again.has(index) && this.running);
    } finally {
      this.draining.delete(index);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.drains);
    clearInterval(this.flush);
    this.redis.disconnect();
  }
}

let host: Host | undefined;
const shutDown = async () => {
  await host?.stop().catch(() => undefined);
  send({ type: 'stopped' });
  process.exit(0);
};

process.on('message', (message: ToHost) => {
  if (message.type === 'start' && !host) {
    host = new Host(message.settings);
    host.ready().then(
      () => send({ type: 'ready' }),
      (error: unknown) => {
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  } else if (message.type === 'signal') host?.signal(message.queues);
  else if (message.type === 'stop') void shutDown();
});
// The bench went away (Ctrl-C, a crash): let go of Redis rather than keep consuming its queues.
process.on('disconnect', () => void shutDown());
