import type { Redis } from 'ioredis';
import {
  HookJobAdder,
  HookJobs,
  HookQueues,
  redisKeys,
  type ActiveJob,
  type JobEnd,
  type JobOffer,
  type RedisKeys,
} from '@hookline/redis';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { HookConsumer } from '../consumer/hook-consumer';
import type { DeliveryEnd, JobSource } from '../consumer/job-source';
import { ReadySet } from '../ready-set';
import { WorkerRoster } from '../worker-roster';

/**
 * A consumer loop in the test's own process, on the test's Redis prefix, with BullMQ's real scripts behind
 * its job source: the interleavings the fleet tests found are played here without processes. The delivery
 * itself is the test's function; every call is logged, with how many were in flight at once.
 */
export class ConsumerRig {
  readonly keys: RedisKeys;
  readonly queues: HookQueues;
  readonly ready: ReadySet;
  readonly delivered: { hookId: string; n: number; holder: string; token: string }[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  private readonly adder: HookJobAdder;
  private readonly consumers: HookConsumer[] = [];

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
    this.queues = new HookQueues(redis, this.keys);
    this.ready = new ReadySet(redis, this.keys);
    this.adder = new HookJobAdder(redis, this.keys);
  }

  /** The real job source of a worker (BullMQ's scripts), with a lock of `lockMs`. */
  jobs(lockMs = 5_000): HookJobs {
    return new HookJobs(this.redis, this.keys, lockMs);
  }

  async publish(hookId: string, n: number): Promise<void> {
    const id = `${hookId}-${n}`;
    await this.adder.add(
      hookId,
      'deliver.v1',
      { n },
      { attempts: 1, removeOnComplete: 100, jobId: id, deduplication: { id, ttl: 60_000 } },
    );
    await this.ready.signal([hookId]);
  }

  /** Starts a consumer named `holder`; `deliver` runs inside the delivery and may wait or interfere. */
  start(
    holder: string,
    source: JobSource,
    options: {
      leaseMs?: number;
      maxHooks?: number;
      deliver?: (job: ActiveJob) => Promise<DeliveryEnd | void>;
    } = {},
  ): HookConsumer {
    const consumer = new HookConsumer({
      blocking: this.redis.duplicate(),
      ready: this.ready,
      jobs: source,
      queues: this.queues,
      deliver: async (job) => {
        this.inFlight += 1;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        try {
          const end = await options.deliver?.(job);
          this.delivered.push({
            hookId: job.hookId,
            n: (JSON.parse(job.data) as { n: number }).n,
            holder,
            token: job.token,
          });
          return end ?? { kind: 'completed', value: 'delivered' };
        } finally {
          this.inFlight -= 1;
        }
      },
      // The rig's deliveries never go through an egress proxy.
      egress: {
        notSent: () => Promise.resolve(0),
        sent: () => Promise.resolve(),
        stoppedWaiting: () => Promise.resolve(),
      },
      holderId: holder,
      roster: new WorkerRoster(this.redis, this.keys),
      name: holder,
      maxHooks: options.maxHooks ?? 8,
      timings: { leaseMs: options.leaseMs ?? 3_000, tenureMs: 1_000, lockPollMs: 100 },
      logger: createLogger('silent', 'rig'),
      metrics: createMetrics(),
    });
    consumer.start();
    this.consumers.push(consumer);
    return consumer;
  }

  numbersOf(hookId: string): number[] {
    return this.delivered.filter((d) => d.hookId === hookId).map((d) => d.n);
  }

  async close(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.close(2_000)));
  }
}

/** A job source that forwards to `inner` and lets a test act around chosen calls. */
export function interceptedSource(
  inner: JobSource,
  around: {
    take?: (call: () => Promise<JobOffer>, hookId: string, token: string) => Promise<JobOffer>;
    finish?: (
      call: () => Promise<ActiveJob | undefined>,
      job: ActiveJob,
      end: JobEnd,
      fetchNext: boolean,
    ) => Promise<ActiveJob | undefined>;
  },
): JobSource {
  return {
    lockMs: inner.lockMs,
    take: (hookId, token) =>
      around.take ? around.take(() => inner.take(hookId, token), hookId, token) : inner.take(hookId, token),
    finish: (job, end, fetchNext) =>
      around.finish
        ? around.finish(() => inner.finish(job, end, fetchNext), job, end, fetchNext)
        : inner.finish(job, end, fetchNext),
    prepareTake: (hookId, token) => inner.prepareTake(hookId, token),
    taken: (take, reply) => inner.taken(take, reply),
    prepareFinish: (job, end, fetchNext) => inner.prepareFinish(job, end, fetchNext),
    finished: (job, reply) => inner.finished(job, reply),
    extendLock: (job) => inner.extendLock(job),
    unlock: (job) => inner.unlock(job),
    requeue: (job) => inner.requeue(job),
  };
}
