import type { JobJson, JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { hookQueueLayout } from './layout';
import { HookBackends } from './backends';
import { EVENTS_MAX_LEN } from './hook-queues';
import type { RedisKeys } from '../keys';

/** The options hookline gives its jobs: a job id, BullMQ's deduplication, no retries, bounded finished sets. */
export type NewJobOptions = Pick<JobsOptions, 'attempts' | 'removeOnComplete' | 'removeOnFail'> & {
  readonly jobId: string;
  readonly deduplication: { readonly id: string; readonly ttl: number };
};

// Queues this process has written the events-stream length into lately (forgotten wholesale past the bound);
// the others get it with their add.
const META_REMEMBERED = 10_000;

/**
 * Adds jobs to hook queues with BullMQ's own add script, through the queue backend, without a Queue handle:
 * a handle costs an INFO (BullMQ's version check) and a meta write on opening, and a producer fanning out to
 * many quiet hooks would open one for nearly every event. The job is stored exactly as `Queue.add` stores it
 * (a test compares the two field by field).
 */
export class HookJobAdder {
  private readonly backends: HookBackends;
  private readonly metaWritten = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    this.backends = new HookBackends(redis, keys);
  }

  async add(hookId: string, name: string, data: unknown, opts: NewJobOptions): Promise<string> {
    // A Queue handle wrote the events-stream length into the meta on opening (see EVENTS_MAX_LEN), which
    // also shortens a queue made before the limit. Sent before the add on the same connection and slot, so
    // the add's own trim already uses it.
    const meta = this.metaWritten.has(hookId)
      ? undefined
      : this.redis.hset(hookQueueLayout(this.keys, hookId).meta, 'opts.maxLenEvents', EVENTS_MAX_LEN);
    const [id] = await Promise.all([
      this.backends.of(hookId).addJob(jobJson(name, data, opts), opts.jobId),
      meta,
    ]);
    if (meta) {
      if (this.metaWritten.size >= META_REMEMBERED) this.metaWritten.clear();
      this.metaWritten.add(hookId);
    }
    return id;
  }
}

/** What BullMQ's `Job.create` hands the backend for these options (its constructor's defaults, `asJSON`). */
function jobJson(name: string, data: unknown, opts: NewJobOptions): JobJson {
  return {
    id: opts.jobId,
    name,
    data: JSON.stringify(data ?? {}),
    opts: { attempts: 0, ...opts },
    progress: 0,
    attemptsMade: 0,
    attemptsStarted: 0,
    stalledCounter: 0,
    timestamp: Date.now(),
    failedReason: JSON.stringify(null),
    stacktrace: JSON.stringify(null),
    returnvalue: JSON.stringify(null),
    deduplicationId: opts.deduplication.id,
  };
}
