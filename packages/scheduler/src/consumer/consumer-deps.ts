import type { Redis } from 'ioredis';
import type { HookQueues, PreparedTake, ActiveJob } from '@hookline/redis';
import type { Logger, Metrics } from '@hookline/telemetry';
import type { ReadySet } from '../ready-set';
import type { WorkerRoster } from '../worker-roster';
import type { ConsumerTimings } from '../timings';
import type { BegunNext, DeliveryEnd, EgressWaiting, JobCompleting, JobSource } from './job-source';

/** What a worker's consumer is given by the composition root. */
export interface ConsumerDeps<B extends BegunNext = BegunNext> {
  /** For the blocking wait on the ready set only; every other command goes through `ready`, `jobs`, `queues`. */
  blocking: Redis;
  ready: ReadySet;
  jobs: JobSource;
  queues: Pick<HookQueues, 'needsWorker' | 'isPaused'>;
  /**
   * One job's delivery. It may complete the job itself with its outcome (`completing`, one round trip for
   * both), answering `finished`; or answer how the job ends, and the consumer finishes it. `begun`: the job's
   * attempt, begun by the script that took it (`takeAndBegin`, or the finish of the job before it: DeliveryEnd
   * `next`), on its first delivery only.
   */
  deliver: (job: ActiveJob, completing: JobCompleting, begun?: B) => Promise<DeliveryEnd<B>>;
  /**
   * Runs a prepared take in a script that also begins the attempt of the job it takes (`begun`, handed to
   * that job's delivery). Without it, a holding's first job is taken alone and its delivery begins it.
   */
  takeAndBegin?: (take: PreparedTake) => Promise<{ readonly jobReply: unknown; readonly begun?: B }>;
  /** How long an event the egress proxy kept from leaving waits before its next try, and who is told. */
  egress: EgressWaiting;
  holderId: string;
  /** Where the worker says it is alive, under `name` (host, pid and holder), for the monitor's metrics. */
  roster: Pick<WorkerRoster, 'beat' | 'leave'>;
  name: string;
  maxHooks: number;
  timings: ConsumerTimings;
  logger: Logger;
  metrics: Metrics;
}
