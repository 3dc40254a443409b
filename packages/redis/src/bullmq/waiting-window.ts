import type { Redis } from 'ioredis';
import type { HookQueueLayout } from './layout';
import { BULLMQ_SCRIPTS } from './scripts';

/**
 * Where a window of a hook's waiting events starts: `from` events after the next to go (0: the next to go), or
 * behind an event read before, named by its job id and when it was accepted (ms): see waiting-window.lua for
 * what happens when that event has left the queue meanwhile.
 */
export type WindowStart =
  { readonly from: number } | { readonly after: { readonly jobId: string; readonly acceptedAt: number } };

/** A job waiting in a hook's queue, as BullMQ keeps it. */
export interface WaitingJob {
  readonly id: string;
  /** The job's data, JSON text as hookline's producer wrote it ('' when the job has none). */
  readonly data: string;
  /** When BullMQ added the job (ms since the epoch; 0 when unknown). */
  readonly addedAt: number;
}

/** Some of a hook's waiting (while paused, held) events, in delivery order. */
export interface WaitingWindow {
  /** Every event waiting, in the same read. */
  readonly total: number;
  /** The position of the window's first event (0: the next to go). */
  readonly from: number;
  readonly jobs: readonly WaitingJob[];
}

/** Reads a window of the hook queue's wait list (waiting-window.lua), `count` events at most. */
export async function readWaitingWindow(
  redis: Redis,
  layout: Pick<HookQueueLayout, 'wait' | 'jobPrefix'>,
  start: WindowStart,
  count: number,
): Promise<WaitingWindow> {
  const where = 'after' in start ? [start.after.jobId, start.after.acceptedAt] : [start.from];
  const reply = await BULLMQ_SCRIPTS.waitingWindow.run(
    redis,
    [layout.wait],
    [layout.jobPrefix, count, ...where],
  );
  return parseWaitingWindow(reply);
}

/** The script's reply, checked: a shape it does not have is a bug here, said loudly. */
export function parseWaitingWindow(reply: unknown): WaitingWindow {
  if (!Array.isArray(reply) || reply.length < 2 || (reply.length - 2) % 3 !== 0)
    throw new Error(`waiting-window.lua answered in a shape hookline does not know: ${String(reply)}`);
  const [total, from, ...flat] = reply as unknown[];
  const jobs: WaitingJob[] = [];
  for (let i = 0; i < flat.length; i += 3)
    jobs.push({ id: String(flat[i]), data: String(flat[i + 1]), addedAt: Number(flat[i + 2]) || 0 });
  return { total: Number(total), from: Number(from), jobs };
}
