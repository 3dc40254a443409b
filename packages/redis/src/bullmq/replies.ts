import { raw2NextJobData, type KeepJobs } from 'bullmq';

/**
 * BullMQ's queue backend answers in shapes it does not promise (`any[]`, `void | any[]`). Every reply hookline
 * reads goes through one of these functions, which check the shape and say what was found when it is not the
 * expected one: a BullMQ upgrade that changes a reply fails here, loudly and in one place (replies.test.ts runs
 * BullMQ's real scripts), instead of as a job silently treated as "no job".
 */

/** BullMQ's job options that its finishing script reads (attempts, how many finished jobs to keep). */
export interface JobOptions {
  readonly attempts?: number;
  readonly removeOnComplete?: boolean | number | KeepJobs;
  readonly removeOnFail?: boolean | number | KeepJobs;
}

/** A job BullMQ handed over: its id, its data as JSON text, and its options. */
export interface HandedJob {
  readonly id: string;
  readonly data: string;
  readonly opts: JobOptions;
}

export class BullmqReplyError extends Error {
  override name = 'BullmqReplyError';
  constructor(call: string, found: unknown) {
    super(`BullMQ's ${call} answered in a shape hookline does not know: ${describe(found)}`);
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return typeof value;
  }
}

/** The job in a parsed next-job reply (`[job | null, id, …]`), or undefined when there is none. */
function handedJob(call: string, parsed: unknown): HandedJob | undefined {
  if (!Array.isArray(parsed)) throw new BullmqReplyError(call, parsed);
  const [job, id] = parsed as unknown[];
  if (job === null || job === undefined || job === 0) return undefined;
  if (typeof job !== 'object' || (typeof id !== 'string' && typeof id !== 'number'))
    throw new BullmqReplyError(call, parsed);
  const { data, opts } = job as { data?: unknown; opts?: unknown };
  if (typeof data !== 'string' || typeof opts !== 'object' || opts === null)
    throw new BullmqReplyError(call, parsed);
  return { id: String(id), data, opts: opts as JobOptions };
}

/** `moveToActive`: the job moved to active under the caller's token, or undefined (none, paused, maxed). */
export function activatedJob(reply: unknown): HandedJob | undefined {
  return handedJob('moveToActive', reply);
}

/** `moveToCompleted` / `moveToFailed` with fetchNext: the next job, taken under the same token, if any. */
export function nextJobAfterFinish(reply: unknown): HandedJob | undefined {
  if (typeof reply !== 'object' || reply === null || !('result' in reply))
    throw new BullmqReplyError('moveToFinished', reply);
  const { result } = reply as { result: unknown };
  if (result === undefined || result === null) return undefined;
  if (Array.isArray(result) && result.length === 0) return undefined;
  return handedJob('moveToFinished', result);
}

/**
 * BullMQ's moveToFinished reply as its script gives it (run inside a caller's script): the next job, if any;
 * a negative code is BullMQ's refusal, turned into BullMQ's own error by `refused`.
 */
export function finishedReply(reply: unknown, refused: (code: number) => Error): HandedJob | undefined {
  if (typeof reply === 'number' && reply < 0) throw refused(reply);
  if (reply === 0 || reply === null || reply === undefined) return undefined;
  if (!Array.isArray(reply)) throw new BullmqReplyError('moveToFinished', reply);
  return nextJobAfterFinish({ result: raw2NextJobData(reply) });
}

/** `extendLock`: whether the lock was the token's and is extended. */
export function lockExtended(reply: unknown): boolean {
  if (reply !== 0 && reply !== 1) throw new BullmqReplyError('extendLock', reply);
  return reply === 1;
}

/** A job hash read raw by hookline's own script (`HGETALL`), parsed as BullMQ parses its own. */
export function jobFromHash(id: string, fields: unknown): HandedJob {
  if (!Array.isArray(fields)) throw new BullmqReplyError('a job hash', fields);
  const job = handedJob('a job hash', raw2NextJobData([fields, id, 0, 0]));
  if (!job) throw new BullmqReplyError('a job hash', fields);
  return job;
}
