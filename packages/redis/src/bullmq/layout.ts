import type { RedisKeys } from '../keys';

/**
 * Where BullMQ 6 keeps a hook queue's state in Redis. BullMQ treats this layout as private, and so does
 * hookline: this is the only module that names it, so a BullMQ upgrade that moves a key is one file to check
 * (with the tests of hook-queues.ts and the suspension scripts). The keys carry the hook's hash tag, like the
 * hook's own keys, so scripts can touch both on one Redis Cluster shard.
 */
export interface HookQueueLayout {
  /** Hash of the queue's metadata; its `paused` field is the hook's suspension state. */
  readonly meta: string;
  /** Key a blocked Worker waits on; BullMQ's pause deletes it so nobody is woken for nothing. */
  readonly marker: string;
  /** List of waiting (or, while paused, held) job ids: LPUSH on add, workers take from the right. */
  readonly wait: string;
  readonly active: string;
  /** Sorted sets of the finished jobs BullMQ keeps for the admin area (removeOnComplete / removeOnFail). */
  readonly completed: string;
  readonly failed: string;
  /** The queue's event stream (trimmed to EVENTS_MAX_LEN). */
  readonly events: string;
  /** Counter BullMQ numbers jobs from. */
  readonly jobCounter: string;
  /** Prefix of every job's hash: `${jobPrefix}${jobId}`. */
  readonly jobPrefix: string;
  /** The lock of an active job: a string holding its holder's token, with an expiry (BullMQ's lease). */
  jobLock(jobId: string): string;
  /** `jobLock(id)` is `${jobPrefix}${id}${jobLockSuffix}`: for a script that learns a job's id as it runs. */
  readonly jobLockSuffix: string;
  /**
   * BullMQ's deduplication key of a deduplication id: the job id it was given, with the TTL of the add. It
   * outlives the job, and while it exists an add with that id adds nothing.
   */
  deduplication(id: string): string;
}

/** The name of the field of `meta` that says the queue is paused. */
export const PAUSED_FIELD = 'paused';

export function hookQueueLayout(keys: RedisKeys, hookId: string): HookQueueLayout {
  const base = `${keys.prefix}:${keys.hookQueueName(hookId)}:`;
  return {
    meta: `${base}meta`,
    marker: `${base}marker`,
    wait: `${base}wait`,
    active: `${base}active`,
    completed: `${base}completed`,
    failed: `${base}failed`,
    events: `${base}events`,
    jobCounter: `${base}id`,
    jobPrefix: base,
    jobLock: (jobId) => `${base}${jobId}:lock`,
    jobLockSuffix: ':lock',
    deduplication: (id) => `${base}de:${id}`,
  };
}
