import type { Redis } from 'ioredis';
import { inSpan, type Tracing } from '@hookline/core';
import { HookJobAdder, HookQueues, type PreparedAdd, type RedisKeys } from '@hookline/redis';
import {
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  FANOUT_STALE_MS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  type DeliverJobData,
} from '../jobs';
import { ReadySet } from '@hookline/scheduler';
import { AccountInbox } from './account-inbox';
import type { InboxEntry } from './inbox-entry';
import { InboxTidy } from './inbox-tidy';

export interface FanOutDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly inbox: AccountInbox;
  /** Called with the hooks that were paused when the event arrived, so the hold cap can drop the oldest. */
  readonly onHeld?: (hookIds: readonly string[]) => Promise<unknown>;
  /** Spans (`hookline.fanout`), when an exporter is configured. */
  readonly tracing?: Tracing;
}

/** The account inbox and the fan-out that empties it, wired together (the producer and recovery both need them). */
export function createInboxFanOut(deps: Omit<FanOutDeps, 'inbox'>): { inbox: AccountInbox; fanOut: FanOut } {
  const inbox = new AccountInbox(deps.redis, deps.keys);
  return { inbox, fanOut: new FanOut({ ...deps, inbox }) };
}

/**
 * Puts one accepted event into the queue of every hook of its entry, then deletes the entry. Each add is one
 * script in that hook's own slot, and is idempotent: the job id and BullMQ's deduplication id are the
 * event id, and the deduplication key outlives the job, so repeating a fan-out that was interrupted never
 * gives a hook the event twice, even after the hook has delivered it.
 *
 * The key lives DEDUPE_TTL_MS (an hour) while the entry is open, then DEDUPE_AFTER_DONE_MS (under a minute)
 * once it is done, so Redis keeps nothing of a delivered event for long. That is safe because each add is
 * fenced (fenced-add.lua): it is refused once the read that handed this fan-out its entry is FANOUT_STALE_MS
 * old. A fan-out that can still add read the entry before it was done, and is refused before the shortened
 * key expires: a stalled fan-out never adds after the key is gone. The entry's deletion and the cut follow the
 * answer (InboxTidy): the publish waits for neither, and closing the fan-out waits for both.
 */
export class FanOut {
  private readonly hookQueues: HookQueues;
  // BullMQ's add script without a Queue handle per hook: one script per event, for a quiet hook as for a busy one.
  private readonly jobs: HookJobAdder;
  private readonly ready: ReadySet;
  private readonly tidy: InboxTidy;

  constructor(private readonly deps: FanOutDeps) {
    this.hookQueues = new HookQueues(deps.redis, deps.keys);
    this.jobs = new HookJobAdder(deps.redis, deps.keys);
    this.ready = new ReadySet(deps.redis, deps.keys);
    this.tidy = new InboxTidy(deps.inbox, this.jobs);
  }

  /**
   * `late`: the entry was left by a process that died mid-fan-out. Hooks deleted since it was accepted are
   * skipped then, so that their obliterated queues are not brought back to life.
   */
  async deliver(accountId: string, entry: InboxEntry, late = false): Promise<void> {
    // A child of the publish: the attempts are its siblings, children of the publish too (the job data
    // carries the entry's context, not this span's), so a trace reads publish -> fan-out, publish -> attempts.
    const attributes = () => ({
      'hookline.account_id': accountId,
      'hookline.event_id': entry.event.id,
      'hookline.hooks': entry.hooks.length,
      'hookline.late': late,
    });
    await inSpan(this.deps.tracing, 'hookline.fanout', entry.trace, attributes, () =>
      this.fanOutEntry(accountId, entry, late),
    );
  }

  private async fanOutEntry(accountId: string, entry: InboxEntry, late: boolean): Promise<void> {
    const hookIds = late ? await this.existing(entry.hooks) : entry.hooks;
    // Signal only once the jobs are in: a process letting go of a hook re-checks its queue after releasing
    // the lease, and a signal dropped because the lease was still held must find the job there. On one Redis
    // each add signals its hook in the same script; on a Redis Cluster the scheduler's keys live on another
    // shard than the hooks', and the signal follows the adds. A crash before the 202 leaves the inbox entry
    // open, and recovery fans it out (and signals) again.
    const together = !this.deps.redis.isCluster;
    // Each add answers whether its queue is paused (read in the add's script): those hooks hold the event.
    const paused = await Promise.all(hookIds.map((hookId) => this.add(accountId, hookId, entry, together)));
    // The signal on the replicas before the 202 (HOOKLINE_REDIS_REPLICA_ACKS): it also writes the hook into
    // the index of hooks with work, the only place the watchdog looks, so a promoted replica without it would
    // hold a job no worker is told of. Not acknowledged, the publish answers 503 and the entry stays: the
    // retry with the same id (or recovery) signals again; the jobs are not added twice. (Signalled with its
    // add, it is acknowledged with it.)
    if (!together) await this.ready.signal(hookIds, { confirmed: true });
    // The event is queued and its hooks told: the entry's deletion and the keys' cut follow the answer, many
    // at a time (InboxTidy). A crash before them leaves the entry to recovery, which finds every job queued.
    this.tidy.done({ accountId, entryId: entry.id, hookIds, jobId: jobIdOf(entry) });
    await this.tellHeld(hookIds.map((hookId, i) => ({ hookId, paused: paused[i]! })));
  }

  /**
   * Sends the entries' deletions and keys' cuts that are due, and waits (bounded) for them: the caller may look
   * at the inbox afterwards. The fan-out goes on being used.
   */
  flush(): Promise<void> {
    return this.tidy.flush();
  }

  /** What `flush` does: the caller may let the connection go afterwards. */
  async close(): Promise<void> {
    await this.flush();
  }

  /**
   * The event's adds to these hooks' queues, prepared for the accept's own script (one Redis: see
   * AccountInbox.accept), with the options of the fan-out's own adds: the script cuts their deduplication
   * keys as InboxTidy does once they are all made, and leaves them their hour when it stops half-way.
   */
  prepare(accountId: string, hookIds: readonly string[], event: EventToQueue): PreparedAdd[] {
    return hookIds.map((hookId) =>
      this.jobs.prepare(
        hookId,
        DELIVER_JOB,
        jobData(accountId, hookId, event),
        jobOptions(event, DEDUPE_TTL_MS),
      ),
    );
  }

  /**
   * Once the event is in its hooks' queues (by this fan-out, or by the accept's script): those whose queues are
   * paused hold it, and the hold cap is told.
   */
  async tellHeld(added: readonly { hookId: string; paused: boolean }[]): Promise<void> {
    const held = added.filter((a) => a.paused).map((a) => a.hookId);
    if (held.length > 0) await this.deps.onHeld?.(held);
  }

  /** Adds the entry's event to the hook's queue; true when the queue is paused (the hook holds it). */
  private async add(accountId: string, hookId: string, entry: InboxEntry, signal: boolean): Promise<boolean> {
    // Refused (StaleFanOutError) when this fan-out read its entry too long ago: the entry stays, not done. With
    // HOOKLINE_REDIS_REPLICA_ACKS the job is on the replicas before the 202; not acknowledged, the add throws,
    // the publish answers 503 and the inbox entry stays for the retry (or recovery) to fan out again.
    const { paused } = await this.jobs.add(
      hookId,
      DELIVER_JOB,
      jobData(accountId, hookId, entry),
      jobOptions(entry, DEDUPE_TTL_MS),
      { readAt: entry.readAt, staleMs: FANOUT_STALE_MS, signal },
    );
    return paused === true;
  }

  // One command per hook, sent together: each goes to its hook's shard (a pipeline may not span shards).
  private async existing(hookIds: readonly string[]): Promise<string[]> {
    return this.hookQueues.existing(hookIds);
  }
}

/** What a hook's job is made of: an inbox entry's event and what queued it, with or without the entry. */
export type EventToQueue = Pick<InboxEntry, 'event' | 'acceptedAt' | 'trigger' | 'attemptId' | 'trace'>;

function jobData(accountId: string, hookId: string, entry: EventToQueue): DeliverJobData {
  const { event, acceptedAt, trigger, attemptId, trace } = entry;
  return {
    accountId,
    hookId,
    event,
    acceptedAt,
    ...(trigger ? { trigger } : {}),
    ...(attemptId ? { attemptId } : {}),
    ...(trace ? { traceparent: trace.traceparent } : {}),
    ...(trace?.tracestate ? { tracestate: trace.tracestate } : {}),
  };
}

function jobOptions(entry: EventToQueue, dedupeTtlMs: number) {
  const jobId = jobIdOf(entry);
  return {
    jobId,
    deduplication: { id: jobId, ttl: dedupeTtlMs },
    attempts: 1,
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/** A send-again is the same event once more: a job of its own, named by the event and the new attempt. */
function jobIdOf({ event, attemptId }: EventToQueue): string {
  return attemptId ? `${event.id}.${attemptId}` : event.id;
}
