import {
  decodePagePosition,
  encodePagePosition,
  searchKeyOf,
  type DeliverableEvent,
  type ErasureTags,
  type PagePosition,
} from '@hookline/core';
import type { RedisKeys, WaitingJob, WindowStart } from '@hookline/redis';
import type { Redis } from 'ioredis';
import type { WaitingQueue } from './contracts';

// The events a suspended hook holds (product.md §5, §15), as the website and the API both show them: in the
// order they would be delivered, each with its kind, when it was accepted and its call id. One reader for both
// front doors, over the one script that reads the hook's queue (redis's waiting-window.lua).

/** A held event as shown: its call id is absent while an erasure that reaches the event runs (below). */
export interface HeldEventView {
  readonly event_id: string;
  readonly type: string;
  /** When hookline accepted the event (ISO 8601, UTC). */
  readonly accepted_at: string;
  readonly call_id?: string;
}

export interface HeldPage {
  readonly data: HeldEventView[];
  /** Present when more events follow: the cursor of the next page (decodeHeldCursor). */
  readonly next_cursor?: string;
  /** The position of the first event shown (0: the next to go), for pages by position (the website's). */
  readonly from: number;
  /** Every event held, in the same read. */
  readonly total: number;
}

/** Where a page starts: a position (the website's links), or behind the last event of a page (a cursor). */
export type HeldPageStart = { readonly from: number } | { readonly cursor: PagePosition };

// hookline's job ids (an event id, or a send-again's `event id.attempt id`); '|' separates a cursor's parts.
const JOB_ID = /^[\x21-\x7b\x7d\x7e]{1,200}$/;
// A job id may look like a hook's id, so a held cursor names its list.
const HELD_LIST = 'held';

/** Undefined for anything a held page's next_cursor was not. */
export function decodeHeldCursor(text: string): PagePosition | undefined {
  return decodePagePosition(text, JOB_ID, HELD_LIST);
}

interface JobData {
  readonly event?: Partial<DeliverableEvent>;
  readonly acceptedAt?: unknown;
}

/** A waiting job's data, read for display only: anything unexpected shows as unknown, never trusted. */
function parse(data: string): JobData {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? (parsed as JobData) : {};
  } catch {
    return {};
  }
}

function eventOf(job: JobData): DeliverableEvent | undefined {
  const event = job.event;
  if (typeof event !== 'object' || event === null || typeof event.fields !== 'object' || !event.fields)
    return undefined;
  if (!Object.values(event.fields).every((value) => typeof value === 'string')) return undefined;
  return event as DeliverableEvent;
}

export class HeldEvents {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly queues: WaitingQueue,
    private readonly tags: Pick<ErasureTags, 'ofEvent'>,
  ) {}

  /** Every event waiting for the hook (held, while it is suspended). */
  count(hookId: string): Promise<number> {
    return this.queues.waitingCount(hookId);
  }

  /**
   * Up to `limit` held events from `start`, in delivery order. A page after a cursor goes on behind the event
   * the cursor names, so events that join the tail or leave the head between pages are never shown twice
   * (waiting-window.lua).
   */
  async page(hookId: string, start: HeldPageStart, limit: number): Promise<HeldPage> {
    // The erasure fence before the events: an erasure accepted before this read has its tags up already, and one
    // that is done removed its events before taking its tags down, so no order of the two reads shows a call id
    // an erasure reaches (product.md §18: its events are removed when it gets to them, seconds later).
    const erasing = new Set(await this.redis.smembers(this.keys.hookErasing(hookId)));
    const window = await this.queues.waitingWindow(hookId, windowStart(start), limit);
    const shown = window.jobs.map((job) => this.shown(job, erasing));
    const last = shown.at(-1);
    const more = window.from + shown.length < window.total;
    return {
      data: shown.map(({ view }) => view),
      ...(more && last
        ? { next_cursor: encodePagePosition(last.view.accepted_at, last.jobId, HELD_LIST) }
        : {}),
      from: window.from,
      total: window.total,
    };
  }

  private shown(job: WaitingJob, erasing: ReadonlySet<string>): { view: HeldEventView; jobId: string } {
    const data = parse(job.data);
    const event = eventOf(data);
    // A job without a readable time (none written by this version) shows when BullMQ added it.
    const acceptedAt = isTime(data.acceptedAt) ? data.acceptedAt : job.addedAt;
    const reached =
      event !== undefined &&
      erasing.size > 0 &&
      this.tags.ofEvent(event.fields, event).some((tag) => erasing.has(tag));
    const callId = event && !reached ? searchKeyOf(event) : undefined;
    return {
      jobId: job.id,
      view: {
        event_id: typeof data.event?.id === 'string' ? data.event.id : job.id,
        type: typeof data.event?.type === 'string' ? data.event.type : 'unknown',
        accepted_at: new Date(acceptedAt).toISOString(),
        ...(callId !== undefined ? { call_id: callId } : {}),
      },
    };
  }
}

// Milliseconds a Date can hold, from 1970 on.
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 8.64e15;

function windowStart(start: HeldPageStart): WindowStart {
  return 'from' in start
    ? { from: start.from }
    : { after: { jobId: start.cursor.id, acceptedAt: start.cursor.at.getTime() } };
}
