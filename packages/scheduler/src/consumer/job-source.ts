import type { ActiveJob, JobEnd, JobOffer } from '@hookline/redis';

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
  /** Finishes the job (never retried) and, when `fetchNext`, takes the next under the same token. Throws when refused. */
  finish(job: ActiveJob, end: JobEnd, fetchNext: boolean): Promise<ActiveJob | undefined>;
  /** False when the lock is no longer the job's token's. */
  extendLock(job: ActiveJob): Promise<boolean>;
}

/** How one job's delivery ended: finished (completed or failed, never retried), or `lost` to another holder. */
export type DeliveryEnd = JobEnd | { readonly kind: 'lost'; readonly why: string };
