import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import type { DeliverJobData, ReadySet } from '@hookline/queue';
import type { HookQueues } from '@hookline/redis';
import type { Logger, Metrics } from '@hookline/telemetry';

export interface AttachmentOptions {
  /** Most hook queues this process is attached to at once (each holds one blocking Redis connection). */
  maxHooks: number;
  /** How long an attached queue may sit empty before the process lets go of it. */
  idleMs: number;
  leaseMs: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
}

export const DEFAULT_TIMINGS = { leaseMs: 10_000, lockDurationMs: 10_000, stalledIntervalMs: 5_000 } as const;

interface Attached {
  readonly worker: Worker<DeliverJobData>;
  readonly attachedAt: number;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  detaching?: Promise<void>;
}

/**
 * Keeps a BullMQ Worker on exactly the hook queues that have work, up to `maxHooks`. Connections, memory
 * and idle Redis traffic therefore grow with the hooks that are busy now, not with configured hooks.
 * BullMQ's global concurrency of 1 per queue keeps one request in flight per hook even when two processes
 * happen to attach to the same queue.
 */
export class HookAttachments {
  private readonly attached = new Map<string, Attached>();
  private running = false;
  private loop?: Promise<void>;
  private timers: NodeJS.Timeout[] = [];
  private slotFreed?: () => void;

  constructor(
    private readonly deps: {
      connection: Redis;
      blocking: Redis;
      keys: RedisKeys;
      ready: ReadySet;
      hookQueues: HookQueues;
      processor: (job: Job<DeliverJobData>) => Promise<string>;
      logger: Logger;
      metrics: Metrics;
      options: AttachmentOptions;
    },
  ) {}

  get count(): number {
    return this.attached.size;
  }

  start(): void {
    const { options } = this.deps;
    this.running = true;
    this.loop = this.claimLoop();
    this.every(Math.floor(options.leaseMs / 3), () =>
      this.deps.ready.renew([...this.attached.keys()], options.leaseMs),
    );
    this.every(Math.floor(options.leaseMs / 2), () => this.deps.ready.reclaimExpired());
    this.every(options.idleMs, () => this.rotate());
  }

  /** Stops claiming, lets every in-flight delivery finish, gives every lease back. */
  async close(): Promise<void> {
    this.running = false;
    for (const t of this.timers) clearInterval(t);
    this.slotFreed?.();
    this.deps.blocking.disconnect();
    await this.loop?.catch(() => undefined);
    await Promise.all([...this.attached.keys()].map((hookId) => this.detach(hookId)));
  }

  private every(ms: number, task: () => Promise<unknown>): void {
    this.timers.push(
      setInterval(() => {
        task().catch((error: unknown) =>
          this.deps.logger.warn({ err: error }, 'scheduler housekeeping failed'),
        );
      }, ms),
    );
  }

  private async claimLoop(): Promise<void> {
    const { ready, blocking, options, logger } = this.deps;
    while (this.running) {
      const room = options.maxHooks - this.attached.size;
      if (room <= 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        const first = await ready.waitForOne(blocking, 1);
        if (!this.running) {
          if (first) await ready.signal([first]);
          return;
        }
        if (!first) continue; // the set stayed empty for a second: nothing to claim
        const claimed = await ready.claim([first], room, options.leaseMs);
        for (const hookId of claimed) this.attach(hookId);
      } catch (error) {
        if (!this.running) return;
        logger.warn({ err: error }, 'claiming ready hooks failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /**
   * Fairness when every slot is taken: a hook that stays busy would otherwise keep its slot for ever while
   * other hooks wait in the ready set. Checked every `idleMs`; hooks attached for at least five idle periods
   * (10 s by default, 1 s at least), the longest-attached first, give their slots up, at most a tenth of them
   * per check (they re-signal themselves, so they queue behind the hooks already waiting).
   */
  private async rotate(): Promise<void> {
    const { options } = this.deps;
    if (!this.running || this.attached.size < options.maxHooks) return;
    const waitingHooks = await this.deps.ready.size();
    if (waitingHooks === 0) return;
    const minTenure = Math.max(1_000, options.idleMs * 5);
    const now = Date.now();
    const longest = [...this.attached.entries()]
      .filter(([, entry]) => now - entry.attachedAt >= minTenure && !entry.detaching)
      .sort(([, a], [, b]) => a.attachedAt - b.attachedAt)
      .slice(0, Math.min(waitingHooks, Math.ceil(options.maxHooks / 10)));
    await Promise.all(longest.map(([hookId]) => this.detach(hookId)));
  }

  private attach(hookId: string): void {
    if (this.attached.has(hookId)) return;
    const { keys, connection, processor, options, logger } = this.deps;
    const worker = new Worker<DeliverJobData>(keys.hookQueueName(hookId), processor, {
      connection,
      prefix: keys.prefix,
      concurrency: 1,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      // Re-runs are safe: the attempt guard records `unknown` instead of sending twice.
      maxStalledCount: 10,
      autorun: true,
    });
    const entry: Attached = { worker, busy: false, attachedAt: Date.now() };
    this.attached.set(hookId, entry);
    this.deps.metrics.attachedHooks.set(this.attached.size);
    worker.on('active', () => {
      entry.busy = true;
      clearTimeout(entry.idleTimer);
    });
    const settle = () => {
      entry.busy = false;
      this.armIdle(hookId, entry);
    };
    worker.on('completed', settle);
    worker.on('failed', settle);
    worker.on('error', (error) => logger.warn({ err: error, hookId }, 'hook worker error'));
    this.armIdle(hookId, entry);
  }

  // Let go only of a queue that is really idle: when hundreds of hooks attach at once, a Worker may not have
  // fetched its first job by the time the timer fires, and detaching it then would only churn.
  private armIdle(hookId: string, entry: Attached): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      if (entry.busy || entry.detaching) return;
      this.deps.hookQueues.needsWorker(hookId).then(
        (hasWork) => (hasWork ? this.armIdle(hookId, entry) : void this.detach(hookId)),
        () => this.armIdle(hookId, entry),
      );
    }, this.deps.options.idleMs);
  }

  private detach(hookId: string): Promise<void> {
    const entry = this.attached.get(hookId);
    if (!entry) return Promise.resolve();
    entry.detaching ??= (async () => {
      clearTimeout(entry.idleTimer);
      await entry.worker.close();
      this.attached.delete(hookId);
      this.deps.metrics.attachedHooks.set(this.attached.size);
      await this.deps.ready.release(hookId);
      // Re-check after letting go: an event that arrived while we held the lease had its signal dropped.
      if (await this.deps.hookQueues.needsWorker(hookId)) await this.deps.ready.signal([hookId]);
      this.slotFreed?.();
    })().catch((error: unknown) => this.deps.logger.warn({ err: error, hookId }, 'detaching a hook failed'));
    return entry.detaching;
  }
}
