import type { RedisQueueBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import { hookQueueLayout } from './layout';
import { HookBackends } from './backends';
import type { RedisKeys } from '../keys';
import {
  activatedJob,
  jobFromHash,
  lockExtended,
  nextJobAfterFinish,
  type HandedJob,
  type JobOptions,
} from './replies';
import { BULLMQ_SCRIPTS } from './scripts';

/** A hook's job this process holds, with the lock token that proves it (the fence of every later write). */
export interface ActiveJob {
  readonly hookId: string;
  readonly id: string;
  /** The job's data as BullMQ keeps it: JSON text, parsed (and validated) by the caller. */
  readonly data: string;
  readonly token: string;
  /** BullMQ's job options, which its finishing script reads (attempts, how many finished jobs to keep). */
  readonly opts: JobOptions;
}

/** What a hook queue offers its holder: the next job, a job another holder still has, or nothing. */
export type JobOffer =
  | { readonly kind: 'job'; readonly job: ActiveJob }
  | { readonly kind: 'locked'; readonly lockMsLeft: number }
  | { readonly kind: 'none' };

export type JobEnd =
  | { readonly kind: 'completed'; readonly value: string }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * The worker's side of the hook queues: BullMQ's own scripts (moveToActive, moveToFinished, extendLock) run
 * on one shared connection through BullMQ's queue backend, with no BullMQ Worker. A Worker is one queue's
 * consumer with a blocking connection, script set-up and timers of its own; hookline has a queue per hook,
 * and paying that for every hook that wakes up made a quiet hook's delivery several times dearer than a
 * busy one's. Here a hook costs a few key strings while it is being delivered to, and nothing otherwise.
 * BullMQ still enforces what it enforced for Workers: global concurrency 1 per queue (one job active per
 * hook across the fleet), the paused flag, and the job lock on every move.
 */
export class HookJobs {
  private readonly backends: HookBackends;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    readonly lockMs: number,
  ) {
    this.backends = new HookBackends(redis, keys, lockMs);
  }

  /** Moves the hook's next waiting job to active under `token`; BullMQ refuses while paused or maxed. */
  async take(hookId: string, token: string): Promise<JobOffer> {
    const job = activatedJob(await this.backend(hookId).moveToActive(token));
    if (job) return { kind: 'job', job: toActiveJob(hookId, job, token) };
    return this.adopt(hookId, token);
  }

  /**
   * Finishes the job (completed or failed: never retried) and, when `fetchNext`, takes the next one in the
   * same script. Throws when the lock is no longer `job.token`'s: the job is someone else's now.
   */
  async finish(job: ActiveJob, end: JobEnd, fetchNext: boolean): Promise<ActiveJob | undefined> {
    const backend = this.backend(job.hookId);
    const minimal = { id: job.id, opts: job.opts } as unknown as Parameters<
      RedisQueueBackend['moveToCompleted']
    >[0];
    const reply =
      end.kind === 'completed'
        ? await backend.moveToCompleted(
            minimal,
            end.value,
            job.opts.removeOnComplete ?? false,
            job.token,
            fetchNext,
          )
        : await backend.moveToFailed(
            minimal,
            end.reason,
            job.opts.removeOnFail ?? false,
            job.token,
            fetchNext,
          );
    const next = nextJobAfterFinish(reply);
    return next ? toActiveJob(job.hookId, next, job.token) : undefined;
  }

  /** Extends the job's lock while its request is in flight; false when the lock is no longer ours. */
  async extendLock(job: ActiveJob): Promise<boolean> {
    return lockExtended(await this.backend(job.hookId).extendLock(job.id, job.token, this.lockMs));
  }

  /**
   * Lets go of the job's lock, leaving the job active and unsent: the next holder takes it over at once
   * (job-adopt.lua) instead of waiting for the lock to expire. False when the lock was no longer ours.
   */
  async unlock(job: ActiveJob): Promise<boolean> {
    return (
      (await BULLMQ_SCRIPTS.jobUnlock.run(this.redis, [this.lockKey(job.hookId, job.id)], [job.token])) === 1
    );
  }

  /** The key that holds the job's lock, for scripts that fence on it. */
  lockKey(hookId: string, jobId: string): string {
    return hookQueueLayout(this.keys, hookId).jobLock(jobId);
  }

  // A job is left active with its lock expired when its holder died or froze: the new holder takes it over
  // under its own token (at once, when its outcome is already recorded and only its completion was lost). The attempt ledger then tells whether the request may have left (recorded
  // `unknown`, never sent again).
  private async adopt(hookId: string, token: string): Promise<JobOffer> {
    const layout = hookQueueLayout(this.keys, hookId);
    const reply = (await BULLMQ_SCRIPTS.jobAdopt.run(
      this.redis,
      [layout.active, this.keys.hookAttempt(hookId)],
      [layout.jobPrefix, token, this.lockMs],
    )) as [string, ...unknown[]];
    if (reply[0] === 'locked') return { kind: 'locked', lockMsLeft: Number(reply[1]) };
    if (reply[0] !== 'adopted') return { kind: 'none' };
    return { kind: 'job', job: toActiveJob(hookId, jobFromHash(String(reply[1]), reply[2]), token) };
  }

  private backend(hookId: string): RedisQueueBackend {
    return this.backends.of(hookId);
  }
}

function toActiveJob(hookId: string, job: HandedJob, token: string): ActiveJob {
  return { hookId, id: job.id, data: job.data, opts: job.opts, token };
}
