import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Lru, UNREADABLE_CREDENTIALS, type AttemptRecord } from '@hookline/core';
import {
  hookQueueLayout,
  runAcknowledged,
  SUSPENSION_DUE_AFTER_MS,
  type PreparedFinish,
  type PreparedTake,
  type RedisKeys,
} from '@hookline/redis';
import { attemptFinishCall, type FinishCall } from './attempt-finish-call';
import { STORE_SCRIPTS } from './scripts';
import type { Redis } from 'ioredis';
import type {
  AttemptFence,
  AttemptFinish,
  AttemptLedger,
  AttemptStart,
  BegunAttempt,
  FinishedJob,
  HookTarget,
  StreakStep,
  SuspensionRule,
  TakenJob,
} from './contracts';
import { parseStoredHook, toHookTarget } from './hook-record';
import { SecretBoxError, type SecretBox } from './secret-box';

// A job whose holder died or froze is taken over by another process. For a webhook, running it again is the
// one thing we must not do blindly: the request may already have reached the endpoint. Before sending, the
// worker writes the event id to the hook's attempt key; recording the outcome appends `:done` in the same
// script that appends the attempt's record to the hook's history outbox (the history writer moves it to
// PostgreSQL; on one Redis the same script marks the hook for it, on a Cluster the caller does). Both steps
// first check the caller's lock token on the job (the fence: a holder that lost the job writes nothing). A
// takeover reads the key:
//   - another event's id (or nothing): this event was never attempted -> send it;
//   - this event's id: it may have left -> record `unknown`, do not send;
//   - this event's id + ':done': the outcome is recorded, only the job's completion was lost -> finish quietly.
//
// Each step is one script in the hook's slot (record, outbox, attempt and streak keys share the `{hk_…}` tag,
// and so do the job's BullMQ keys). The one after the request also completes the job with BullMQ's
// moveToFinished (finishAndComplete). The mark is made by the script that takes the job where it can be: the
// take's, with BullMQ's moveToActive (takeAndBegin), or the previous outcome's, which took it (`markNext`);
// otherwise by a script of its own (begin). A hook's delivery then has no round trip of its own before its
// request. The mark's code is shared by the three (attempt-mark.lua).
//
// The finish script also moves the hook's failure streak (the rules are in packages/suspension) for a delivered outcome, so a
// healthy delivery writes nothing to the global outcome stream and costs the suspension monitor nothing:
// only non-delivered outcomes go through the stream, where the monitor counts them. A failure creates the
// streak hash here, before the next attempt can start, so the delivered outcome that follows always finds it
// and records its reset, even when the monitor has not read the failure yet. (Workers from before this change
// do not create it: during a rolling upgrade, one of their failures that the monitor reads after a newer
// worker's success can count once too often for that hook.)

const FINISHED: Record<string, AttemptFinish> = {
  '1': 'recorded',
  '0': 'hook_deleted',
  '-1': 'fenced',
  '-2': 'not_this_attempt',
  '-3': 'recorded_deleted',
};

// Decrypted targets of recently delivered hooks, by version: a busy hook's credentials are not decrypted,
// nor its record shipped, for every event.
const CACHE_MAX = 10_000;

/** How long an attempt mark may wait for its replica acknowledgements: a replica reattaching after a failover. */
const ACK_WAIT_MS = 15_000;

/** attempt-mark.lua's reply: the state, the lock's ms left, and the hook's fields when the caller's copy is stale. */
type MarkReply = [string, number, string[]?];

export class RedisAttemptLedger implements AttemptLedger {
  private readonly targets = new Lru<string, HookTarget>(CACHE_MAX);

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly secretBox: SecretBox,
    /** When given, a failure that brings its hook's streak to the rule pauses the queue in its own script. */
    private readonly suspensionRule?: SuspensionRule,
  ) {}

  /**
   * Marks the attempt. With HOOKLINE_REDIS_REPLICA_ACKS the mark must be on the replicas before the request
   * leaves, or a promoted replica without it would let another worker send the event again. While it is not
   * (a replica lagging or reattaching after a failover, the connection lost mid-WAIT), the mark is made again
   * under the same token (the script's "same holder asking again"), each time with its own WAIT in the same
   * pipeline (see replica-acks.ts), for up to ACK_WAIT_MS; then
   * it is taken back (nothing was sent) and the event waits for the job's next taking.
   */
  async begin(
    hookId: string,
    eventId: string,
    fence: AttemptFence,
    erasureTags: readonly string[] | (() => readonly string[]) = [],
  ): Promise<AttemptStart> {
    const started = performance.now();
    for (;;) {
      const askedAt = performance.now();
      const { start, unacknowledged } = await this.mark(hookId, eventId, fence, erasureTags);
      if (start.kind !== 'send' || !unacknowledged) {
        // The caller counts the lock left from when it asked: the time spent here before this mark is added back.
        return start.kind === 'send'
          ? { ...start, lockMsLeft: start.lockMsLeft + (askedAt - started) }
          : start;
      }
      if (performance.now() - started > ACK_WAIT_MS) {
        await this.withdraw(hookId, eventId, fence);
        return { kind: 'unacknowledged' };
      }
      await sleep(250);
    }
  }

  async withdraw(hookId: string, eventId: string, fence: AttemptFence): Promise<boolean> {
    const withdrawn = await STORE_SCRIPTS.attemptWithdraw.run(
      this.redis,
      [this.keys.hookAttempt(hookId), this.lockKey(hookId, fence)],
      [eventId, fence.token],
    );
    return Number(withdrawn) === 1;
  }

  /** The mark, with its WAIT in the same pipeline on a client that requires replica acknowledgements. */
  private async mark(
    hookId: string,
    eventId: string,
    fence: AttemptFence,
    erasureTags: readonly string[] | (() => readonly string[]),
  ): Promise<{ start: AttemptStart; unacknowledged?: Error }> {
    const cached = this.targets.get(hookId);
    const begin = async (tags: readonly string[] | undefined) =>
      runAcknowledged(
        this.redis,
        STORE_SCRIPTS.attemptBegin,
        [
          this.keys.hookAttempt(hookId),
          this.keys.hookRecord(hookId),
          this.lockKey(hookId, fence),
          this.keys.hookErasing(hookId),
        ],
        [eventId, cached ? String(cached.version) : '', fence.token, ...(tags ? ['tags', ...tags] : ['ask'])],
      );
    const lazy = typeof erasureTags === 'function';
    let marked = await begin(lazy ? undefined : erasureTags);
    // An erasure runs on the hook: the script wants the event's tags (nothing was written yet).
    if (lazy && (marked.reply as MarkReply)[0] === 'tags_wanted') marked = await begin(erasureTags());
    const start = this.started(hookId, cached, marked.reply as MarkReply);
    return start.kind === 'send' && marked.unacknowledged
      ? { start, unacknowledged: marked.unacknowledged }
      : { start };
  }

  /** What a mark (attempt-mark.lua) answered, read against the target cached when it was asked for. */
  private started(hookId: string, cached: HookTarget | undefined, reply: MarkReply): AttemptStart {
    const [state, lockMsLeft, fields] = reply;
    if (state !== 'send')
      return { kind: state as Exclude<AttemptStart['kind'], 'send' | 'unsendable' | 'unacknowledged'> };
    let target: HookTarget | undefined;
    try {
      target = fields ? this.remember(hookId, fields) : cached;
    } catch (error) {
      // A key change would otherwise fail every attempt with an exception, and the worker would take the hook
      // again at once, forever: the attempt fails as an outcome instead, which the suspension rule counts.
      if (error instanceof SecretBoxError) return { kind: 'unsendable', reason: UNREADABLE_CREDENTIALS };
      throw error;
    }
    // The record exists (checked in the script) but does not parse: treat it as gone rather than guess.
    if (!target) return { kind: 'hook_deleted' };
    return { kind: 'send', target, lockMsLeft };
  }

  async release(hookId: string, marker: string, fence: AttemptFence): Promise<'released' | 'fenced'> {
    const result = await STORE_SCRIPTS.attemptWithdraw.run(
      this.redis,
      [this.keys.hookAttempt(hookId), this.lockKey(hookId, fence)],
      [marker, fence.token],
    );
    return Number(result) === 0 ? 'fenced' : 'released';
  }

  async finish(
    hookId: string,
    record: AttemptRecord,
    fence: AttemptFence,
    streakStep?: StreakStep,
    marker: string = record.event_id,
    emptiedJobData?: string,
  ): Promise<AttemptFinish> {
    const { reply, unacknowledged } = await this.runFinish({
      hookId,
      record,
      fence,
      streakStep,
      marker,
      emptiedJobData,
    });
    const finished = FINISHED[String(reply)] ?? 'recorded';
    // Acknowledged by the replicas before the job completes (the caller tries again when not: the script
    // answers "recorded" to a repeat, and the WAIT covers the first write).
    if ((finished === 'recorded' || finished === 'recorded_deleted') && unacknowledged) throw unacknowledged;
    return finished;
  }

  async finishAndComplete(
    hookId: string,
    record: AttemptRecord,
    fence: AttemptFence,
    streakStep: StreakStep | undefined,
    marker: string,
    emptiedJobData: string,
    completion: PreparedFinish,
    markNext = false,
    erasureTags?: readonly string[],
  ): Promise<FinishedJob> {
    const askedAt = performance.now();
    const cached = markNext ? this.targets.get(hookId) : undefined;
    // On one Redis the writer's set is beside the hook's keys: the script marks the hook with its record.
    const markHistoryAt = this.redis.isCluster ? undefined : Date.now();
    // So is the scheduler's lease: when the consumer asked for the next job and there is none, the script gives
    // the lease back (after an outcome the monitor is told of, the consumer does, after telling it).
    const releaseFor = markNext && !this.redis.isCluster ? completion.releaseFor : undefined;
    const { reply, unacknowledged } = await this.runFinish({
      hookId,
      record,
      fence,
      streakStep,
      marker,
      emptiedJobData,
      completing: {
        completion,
        markNext,
        cachedVersion: cached ? String(cached.version) : '',
        ...(markHistoryAt !== undefined ? { markHistoryAt } : {}),
        ...(releaseFor !== undefined ? { releaseFor } : {}),
        ...(record.outcome === 'erased' && erasureTags
          ? { fenceEntry: [record.event_id, ...erasureTags].join(' ') }
          : {}),
        ...(streakStep === 'failure' && this.suspensionRule ? { suspendBy: this.suspensionRule } : {}),
      },
    });
    const [code, jobReply, nextMark, released] = reply as [number, unknown?, (MarkReply | 0)?, number?];
    const again = code === 2;
    const finished = again ? 'recorded' : (FINISHED[String(code)] ?? 'recorded');
    const historyMarked = code === 1 && markHistoryAt !== undefined;
    // Written and acknowledged together (one script, one WAIT): the outcome is on the replicas no later than
    // the completion. Not acknowledged, the caller tries again, and the repeat answers `again` (the lock went
    // with the completion) under a WAIT that covers the first write. The next job's mark, if one was made, is
    // then made again by the next job's own `begin` (the same holder asking again is told to send).
    if (finished !== 'fenced' && unacknowledged) throw unacknowledged;
    if (finished === 'fenced' || finished === 'recorded_deleted') return { finished };
    if (again) return { finished, again };
    const next = nextMark ? this.begun(hookId, cached, jobReply, nextMark, askedAt) : undefined;
    return {
      finished,
      jobReply,
      ...(next ? { next } : {}),
      ...(historyMarked ? { historyMarked: true as const } : {}),
      ...(released === 1 ? { leaseReleased: true as const } : {}),
    };
  }

  async takeAndBegin(take: PreparedTake): Promise<TakenJob> {
    const { hookId } = take;
    const askedAt = performance.now();
    const cached = this.targets.get(hookId);
    const layout = hookQueueLayout(this.keys, hookId);
    const { reply, unacknowledged } = await runAcknowledged(
      this.redis,
      STORE_SCRIPTS.attemptTake,
      [
        this.keys.hookAttempt(hookId),
        this.keys.hookRecord(hookId),
        this.keys.hookErasing(hookId),
        ...take.keys,
      ],
      [
        take.token,
        layout.jobPrefix,
        layout.jobLockSuffix,
        cached ? String(cached.version) : '',
        ...take.args,
      ],
    );
    const [jobReply, mark] = reply as [unknown, MarkReply?];
    // A mark the replicas did not acknowledge is not one to send on: the job's own `begin` marks it again
    // (the same holder asking again), and waits for them.
    const begun = unacknowledged ? undefined : this.begun(hookId, cached, jobReply, mark, askedAt);
    return begun ? { jobReply, begun } : { jobReply };
  }

  /**
   * The attempt a take's script marked for the job BullMQ took (its reply: the job's fields, then its id);
   * none when it took none, or an erasure runs on the hook (the job's own `begin` brings the event's tags).
   */
  private begun(
    hookId: string,
    cached: HookTarget | undefined,
    jobReply: unknown,
    mark: MarkReply | undefined,
    askedAt: number,
  ): BegunAttempt | undefined {
    if (!mark || mark[0] === 'tags_wanted') return undefined;
    const jobId = (jobReply as unknown[])[1] as string;
    return { jobId, start: this.started(hookId, cached, mark), askedAt };
  }

  private async runFinish(call: FinishCall) {
    const { completing } = call;
    // On one Redis the due set is beside the hook's keys: the script itself points the monitor at a suspension
    // it makes. On a Cluster the set is on another shard, so a failure that may suspend the hook points the
    // monitor at it before the script runs (LT: never later than an entry already there; one that finds
    // nothing to record is dropped by the monitor). A worker killed between the script and the failure's
    // stream entry then leaves no hook paused with its suspension unrecorded.
    const dueSetReachable = !this.redis.isCluster;
    if (completing?.suspendBy && !dueSetReachable) {
      const dueAt = Date.now() + SUSPENSION_DUE_AFTER_MS;
      await this.redis.zadd(this.keys.suspensionDue(), 'LT', dueAt, call.hookId);
    }
    const laidOut = attemptFinishCall(
      this.keys,
      completing ? { ...call, completing: { ...completing, dueSetReachable } } : call,
    );
    return runAcknowledged(this.redis, STORE_SCRIPTS.attemptFinish, laidOut.keys, laidOut.args);
  }

  private lockKey(hookId: string, fence: AttemptFence): string {
    return hookQueueLayout(this.keys, hookId).jobLock(fence.jobId);
  }

  private remember(hookId: string, flat: readonly string[]): HookTarget | undefined {
    const raw: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) raw[flat[i]!] = flat[i + 1]!;
    const hook = parseStoredHook(hookId, raw);
    this.targets.delete(hookId);
    if (!hook) return undefined;
    const target = toHookTarget(hook, this.secretBox);
    this.targets.set(hookId, target);
    return target;
  }
}
