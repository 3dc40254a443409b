import { createRequire } from 'node:module';
import { raw2NextJobData, type RedisQueueBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import { hookQueueLayout } from './layout';
import { HookBackends } from './backends';
import type { RedisKeys } from '../keys';
import {
  activatedJob,
  finishedReply,
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
 * A take for a script of the caller's (the worker's, which marks the attempt of the job it takes on the same
 * slot): BullMQ's moveToActive keys and arguments, as BullMQ's backend builds them, read back with `taken`.
 */
export interface PreparedTake {
  readonly hookId: string;
  readonly token: string;
  /** moveToActive's eleven keys. */
  readonly keys: readonly string[];
  /** Its arguments: the queue's key prefix, the time, the packed options (token, lock duration). */
  readonly args: readonly (string | number | Buffer)[];
}

/**
 * A job's finish for a script of the caller's (the outcome's, on the job's own slot): BullMQ's moveToFinished
 * keys and arguments, built by BullMQ as for its own script (`MOVE_TO_FINISHED`), read back with `finished`.
 */
export interface PreparedFinish {
  /** moveToFinished's fourteen keys. */
  readonly keys: readonly string[];
  /** Its arguments: job id, time, field, value, target, fetch next, prefix, packed options, fields to update. */
  readonly args: readonly (string | number | Buffer)[];
  /**
   * The holder whose lease of the hook the same script gives back when the finish takes no next job (its
   * queue ran empty): set by the consumer when it asks for the next job. Honoured on one Redis only, where the
   * scheduler's keys sit beside the hook's; the script's caller says whether it was given back.
   */
  readonly releaseFor?: string;
}

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
  private readonly lockBackends: HookBackends;

  /**
   * `locksRedis`: where lock extensions go, when not on `redis`. With replica acknowledgements the worker's
   * command connection carries a WAIT after every mark and outcome, each holding it up to 1 s while no
   * replica answers; an extension queued behind them reached Redis after its lock had expired, and another
   * holder took the job over and recorded `unknown` for an event never sent. An extension needs no WAIT of
   * its own: one made before a mark is in the replication stream before it, so the mark's WAIT covers it.
   */
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    readonly lockMs: number,
    locksRedis: Redis = redis,
  ) {
    this.backends = new HookBackends(redis, keys, lockMs);
    this.lockBackends = locksRedis === redis ? this.backends : new HookBackends(locksRedis, keys, lockMs);
  }

  /** Moves the hook's next waiting job to active under `token`; BullMQ refuses while paused or maxed. */
  async take(hookId: string, token: string): Promise<JobOffer> {
    const job = activatedJob(await this.backend(hookId).moveToActive(token));
    if (job) return { kind: 'job', job: toActiveJob(hookId, job, token) };
    return this.adopt(hookId, token);
  }

  /**
   * `take`'s moveToActive, prepared for a caller's script that runs it as shipped (MOVE_TO_ACTIVE) and writes
   * on the job's slot after it: the keys and arguments BullMQ's backend sends for its own moveToActive.
   */
  prepareTake(hookId: string, token: string): PreparedTake {
    const { keys, opts } = (this.backend(hookId) as RedisQueueBackend & BackendArgs).queue;
    return {
      hookId,
      token,
      keys: [
        keys.wait!,
        keys.active!,
        keys.prioritized!,
        keys.events!,
        keys.stalled!,
        keys.limiter!,
        keys.delayed!,
        keys.paused!,
        keys.meta!,
        keys.pc!,
        keys.marker!,
      ],
      args: [
        keys['']!,
        Date.now(),
        pack({ token, lockDuration: opts.lockDuration, limiter: opts.limiter, name: undefined }),
      ],
    };
  }

  /**
   * What a prepared take's moveToActive answered inside the caller's script: the job, or, when it offered
   * none, what `take` does then (a job left active by another holder, or under this very token).
   */
  async taken(take: PreparedTake, reply: unknown): Promise<JobOffer> {
    const job = activatedJob(raw2NextJobData(reply as Parameters<typeof raw2NextJobData>[0]));
    if (job) return { kind: 'job', job: toActiveJob(take.hookId, job, take.token) };
    return this.adopt(take.hookId, take.token);
  }

  /**
   * Finishes the job (completed or failed: never retried) and, when `fetchNext`, takes the next one in the
   * same script. Throws when the lock is no longer `job.token`'s: the job is someone else's now.
   */
  async finish(job: ActiveJob, end: JobEnd, fetchNext: boolean): Promise<ActiveJob | undefined> {
    const backend = this.backend(job.hookId);
    const minimal = minimalJob(job);
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

  /**
   * `finish`'s keys and arguments, for a script of the caller's that runs BullMQ's moveToFinished as shipped
   * after writes of its own on the job's slot (the outcome's: packages/store's attempt-finish.lua): one round
   * trip instead of two. BullMQ builds them exactly as for `finish`.
   */
  prepareFinish(job: ActiveJob, end: JobEnd, fetchNext: boolean): PreparedFinish {
    const backend = this.backend(job.hookId) as RedisQueueBackend & BackendArgs;
    const minimal = minimalJob(job);
    const all =
      end.kind === 'completed'
        ? backend.moveToCompletedArgs(
            minimal,
            JSON.stringify(end.value),
            job.opts.removeOnComplete ?? false,
            job.token,
            fetchNext,
          )
        : backend.moveToFailedArgs(minimal, end.reason, job.opts.removeOnFail ?? false, job.token, fetchNext);
    const count = backend.moveToFinishedKeys.length;
    return {
      keys: all.slice(0, count) as string[],
      // BullMQ leaves "fields to update" undefined when there are none; its script reads '' the same way.
      args: all.slice(count).map((a) => (a === undefined || typeof a === 'boolean' ? String(a ?? '') : a)),
    };
  }

  /**
   * What BullMQ's moveToFinished answered inside a caller's script (`prepareFinish`): the next job under the
   * same token, if one was taken. Throws, as `finish` does, when BullMQ refused (the lock is no longer ours).
   */
  finished(job: ActiveJob, reply: unknown): ActiveJob | undefined {
    const next = finishedReply(reply, (code) =>
      (this.backend(job.hookId) as RedisQueueBackend & BackendArgs).finishedErrors({
        code,
        jobId: job.id,
        command: 'moveToFinished',
        state: 'active',
      }),
    );
    return next ? toActiveJob(job.hookId, next, job.token) : undefined;
  }

  /** Extends the job's lock while its request is in flight; false when the lock is no longer ours. */
  async extendLock(job: ActiveJob): Promise<boolean> {
    const backend = this.lockBackends.of(job.hookId);
    return lockExtended(await backend.extendLock(job.id, job.token, this.lockMs));
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

  /**
   * Puts a job that was never sent back at the head of its hook's queue (job-requeue.lua): taken first by the
   * next holder, held with the others while the hook is paused. False when the lock was no longer ours.
   */
  async requeue(job: ActiveJob): Promise<boolean> {
    const layout = hookQueueLayout(this.keys, job.hookId);
    return (
      (await BULLMQ_SCRIPTS.jobRequeue.run(
        this.redis,
        [this.lockKey(job.hookId, job.id), layout.active, layout.wait, layout.jobPrefix + job.id],
        [job.token, job.id],
      )) === 1
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

// BullMQ packs a script's options with msgpackr as configured here (its Redis backend's packer), and its
// scripts unpack them with cmsgpack: the same packer, from BullMQ's own dependency.
const pack = new (
  createRequire(require.resolve('bullmq'))('msgpackr') as {
    Packr: new (options: object) => { pack(value: unknown): Buffer };
  }
).Packr({ useRecords: false, encodeUndefinedAsNil: true }).pack;

/** What BullMQ's finishing calls read of a job: its id and options. */
function minimalJob(job: ActiveJob): Parameters<RedisQueueBackend['moveToCompleted']>[0] {
  return { id: job.id, opts: job.opts } as unknown as Parameters<RedisQueueBackend['moveToCompleted']>[0];
}

// The backend's argument builders and error mapping, public on BullMQ's Redis backend class though not on the
// interface its factory returns.
interface BackendArgs {
  readonly queue: {
    readonly keys: Readonly<Record<string, string | undefined>>;
    readonly opts: { readonly lockDuration?: number; readonly limiter?: unknown };
  };
  readonly moveToFinishedKeys: readonly unknown[];
  moveToCompletedArgs(
    job: Parameters<RedisQueueBackend['moveToCompleted']>[0],
    returnvalue: string,
    removeOnComplete: JobOptions['removeOnComplete'],
    token: string,
    fetchNext?: boolean,
  ): (string | number | boolean | Buffer | undefined)[];
  moveToFailedArgs(
    job: Parameters<RedisQueueBackend['moveToCompleted']>[0],
    failedReason: string,
    removeOnFailed: JobOptions['removeOnFail'],
    token: string,
    fetchNext?: boolean,
  ): (string | number | boolean | Buffer | undefined)[];
  finishedErrors(args: { code: number; jobId: string; command: string; state: string }): Error;
}

function toActiveJob(hookId: string, job: HandedJob, token: string): ActiveJob {
  return { hookId, id: job.id, data: job.data, opts: job.opts, token };
}
