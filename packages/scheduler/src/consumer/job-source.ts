import type { NotSent } from '@hookline/core';
import type { ActiveJob, JobEnd, JobOffer, PreparedFinish, PreparedTake } from '@hookline/redis';

/**
 * What the consumer loop needs of a hook's queue: the seam between the engine and BullMQ (production:
 * `HookJobs` in packages/redis/src/bullmq, running BullMQ's own scripts; tests wrap it to lose a reply, fail
 * a write or hold a job elsewhere at a chosen moment). Every call is fenced by the job's lock token.
 */
export interface JobSource {
  /** How long a job's lock lasts from a take or an extension: the take-over time of a job left active. */
  readonly lockMs: number;
  /**
   * The hook's next job under `token` (a new token for every taking, see TakingTokens), a job another
   * holder still has locked, or nothing (empty or paused).
   */
  take(hookId: string, token: string): Promise<JobOffer>;
  /**
   * `take`, prepared for a script of the delivery's that runs BullMQ's moveToActive and marks the attempt of
   * the job it takes (one round trip for both); `taken` reads what it answered, and when it took no job does
   * what `take` does then.
   */
  prepareTake(hookId: string, token: string): PreparedTake;
  taken(take: PreparedTake, reply: unknown): Promise<JobOffer>;
  /** Finishes the job (never retried) and, when `fetchNext`, takes the next under the same token. Throws when refused. */
  finish(job: ActiveJob, end: JobEnd, fetchNext: boolean): Promise<ActiveJob | undefined>;
  /**
   * `finish`, prepared for the script that records the job's outcome to run (BullMQ's moveToFinished after the
   * outcome, on the job's slot: one round trip for both); `finished` reads what it answered.
   */
  prepareFinish(job: ActiveJob, end: JobEnd, fetchNext: boolean): PreparedFinish;
  /** The next job taken under the same token by a prepared finish, if any. Throws when it was refused. */
  finished(job: ActiveJob, reply: unknown): ActiveJob | undefined;
  /** False when the lock is no longer the job's token's. */
  extendLock(job: ActiveJob): Promise<boolean>;
  /**
   * Lets go of a job that was never sent (its lock deleted while it is still the token's): the next holder
   * takes it at once instead of waiting for the lock to expire. False when the lock was not the token's.
   */
  unlock(job: ActiveJob): Promise<boolean>;
  /**
   * Puts a job that was never sent back at the head of its hook's queue (its lock deleted while it is still
   * the token's): the next holder takes it first, and while the hook is paused it is held with the others.
   * False when the lock was not the token's.
   */
  requeue(job: ActiveJob): Promise<boolean>;
}

/**
 * Given to a delivery by the consumer: the job's finish as `end`, prepared for the script that records the
 * outcome (JobSource.prepareFinish); whether it takes the next job is decided when it is prepared.
 */
export interface JobCompleting {
  prepare(end: JobEnd): PreparedFinish;
}

/**
 * An attempt already begun for a job by the script that took it (the take's, or the one that finished the job
 * before it under the same token; what it holds is the delivery's business): the consumer hands it to that
 * job's first delivery, so the request leaves with no round trip before it.
 */
export interface BegunNext {
  readonly jobId: string;
}

/**
 * How one job's delivery ended: to be finished (completed or failed, never retried), `finished` already (the
 * outcome's script completed the job, see JobCompleting), `lost` to another holder,
 * `withdrawn` (below), or `not_sent`: the egress proxy kept the request from leaving, the attempt's mark is taken back, and the job
 * stays active under this holder's lock, at the head of the hook's queue, to be tried again later.
 */
export type DeliveryEnd<B extends BegunNext = BegunNext> =
  | JobEnd
  /**
   * Completed or failed as `end` with its outcome: `jobReply` is BullMQ's answer (JobSource.finished reads the
   * next job from it); `again` when a resend found the job finished by this very call, its reply lost; `next`
   * when the same script also began the attempt of the job it took next (handed to that job's delivery);
   * `leaseReleased` when it took none and gave the hook's lease back (asked for by `PreparedFinish.releaseFor`).
   */
  | {
      readonly kind: 'finished';
      readonly end: JobEnd;
      readonly jobReply?: unknown;
      readonly again?: true;
      readonly next?: B;
      readonly leaseReleased?: true;
    }
  | { readonly kind: 'lost'; readonly why: string }
  /**
   * Nothing was sent and the attempt's mark is taken back (no replica acknowledged it in time, or the holder
   * stalled before sending), while the job's lock may still be this holder's: the consumer lets go of the lock
   * and the hook, so the next taking sends the event at once instead of waiting for the lock to expire.
   */
  | { readonly kind: 'withdrawn'; readonly why: string }
  | { readonly kind: 'not_sent'; readonly result: NotSent };

/** How long an event the egress proxy kept back waits before its next try, and who is told (apps/worker). */
export interface EgressWaiting {
  /** A try that did not leave: the wait before the next, in ms. */
  notSent(hookId: string, jobId: string, result: NotSent): Promise<number>;
  /** A request of the hook left: its wait, if any, is over. */
  sent(hookId: string): Promise<void>;
  /**
   * This process stopped keeping the hook's event waiting (shutting down, or the hook goes to another holder),
   * the event still unsent: the hook's wait is no longer this process's to report. The next holder tries at once
   * and says afresh whether the proxy still keeps it back; left in place, the wait would outlive a proxy that
   * was fixed meanwhile, and the next holder, not knowing of it, would never clear it.
   */
  stoppedWaiting(hookId: string): Promise<void>;
}
