import type { Redis } from 'ioredis';
import {
  buildAttemptRecord,
  erasedRecord,
  type ErasureTags,
  isDropped,
  type AttemptResult,
  type RecordedOutcome,
  type RecordedRequest,
} from '@hookline/core';
import type { OutboxMarks, PreparedFinish, RedisKeys } from '@hookline/redis';
import { appendOutcome, type DeliverJobData } from '@hookline/queue';
import type { AttemptFence, AttemptLedger, FinishedJob } from '@hookline/store';
import { streakStep } from '@hookline/suspension';
import { retryWrite } from '@hookline/scheduler';
import type { Logger, Metrics } from '@hookline/telemetry';

export interface RecordedAttempt extends Partial<Omit<AttemptResult, 'outcome'>> {
  readonly outcome: RecordedOutcome;
  readonly startedAt: number;
  /** What was sent, credentials masked; absent when nothing was (a crash's `unknown`, a blocked address). */
  readonly request?: RecordedRequest;
  /** The attempt's id when the caller made it (to name its span too); else the job's, or a new one. */
  readonly attemptId?: string;
  /** Where the attempt stands in its W3C trace, kept with the record. */
  readonly trace?: { readonly trace_id: string; readonly span_id: string };
}

/**
 * Writes one outcome everywhere it is read: the attempt's record to the hook's history outbox (customers read
 * it from the history; the same script marks the attempt done and, for a delivered outcome, ends the hook's
 * failure streak), the outcome stream for any other outcome (the suspension monitor counts failures there),
 * metrics and a log line (operators).
 */
export class OutcomeRecorder {
  constructor(
    private readonly deps: {
      redis: Redis;
      keys: RedisKeys;
      attempts: Pick<AttemptLedger, 'finishAndComplete'>;
      /** The erasure fence's tags (the store's): an `erased` record's, which the erasure counts it by. */
      erasureTags: ErasureTags;
      /** Tells the history writer which hooks have new records. */
      marks: Pick<OutboxMarks, 'add'>;
      metrics: Metrics;
      logger: Logger;
      /** How long a failing outcome write is tried again: the job's lock (packages/scheduler's write-retry.ts says why). */
      retryMs: number;
    },
  ) {}

  /**
   * Nothing is announced, counted or logged as a delivery when the ledger refuses the record (`fenced`). The
   * same script completes the job with `completion` (see AttemptLedger.finishAndComplete).
   */
  async record(
    job: DeliverJobData,
    fence: AttemptFence,
    attempt: RecordedAttempt,
    completion: PreparedFinish,
  ): Promise<FinishedJob> {
    const { hookId, accountId, event } = job;
    const attemptId = job.attemptId ?? attempt.attemptId;
    const entry = buildAttemptRecord(
      { accountId, hookId, event, trigger: job.trigger, ...(attemptId ? { attemptId } : {}) },
      { ...attempt, at: new Date(attempt.startedAt) },
    );
    // An event an erasure reached is recorded without anything of its content.
    const recorded = attempt.outcome === 'erased' ? erasedRecord(entry, new Date(attempt.startedAt)) : entry;
    // Tried again while Redis fails over (see packages/scheduler's write-retry.ts).
    const step = streakStep(attempt.outcome);
    // The outcome stream is written after the script, so only an outcome that needs none lets the script mark
    // the next job's attempt too: nothing on Redis then stands between that mark and the next request.
    const announced = attempt.outcome !== 'delivered' && !isDropped(attempt.outcome);
    const done = await retryWrite(
      () =>
        this.deps.attempts.finishAndComplete(
          hookId,
          recorded,
          fence,
          step,
          fence.jobId,
          emptiedJobData(job),
          completion,
          !announced,
          // The erasure that set the fence counts the event by these (its own tags among them).
          attempt.outcome === 'erased' ? this.deps.erasureTags.ofEvent(event.fields, event) : undefined,
        ),
      this.deps.retryMs,
      (error, n) =>
        this.deps.logger.warn(
          { err: error, hookId, eventId: event.id, n },
          'recording an outcome failed; retrying',
        ),
    );
    const { finished } = done;
    if (finished === 'fenced' || finished === 'not_this_attempt') {
      this.deps.logger.warn(
        { hookId, eventId: event.id, outcome: attempt.outcome, refused: finished },
        'outcome not recorded: this process no longer holds the job',
      );
      return done;
    }
    if ((finished === 'recorded' || finished === 'recorded_deleted') && !done.historyMarked)
      this.deps.marks.add(hookId);
    // A delivered outcome has nothing more for the monitor: the finish script has already applied it to the
    // streak. Healthy deliveries, by far the most, then cost the outcome stream and the monitor nothing. A
    // deleted hook has no streak to move, nor a suspension to decide.
    if (announced && finished !== 'recorded_deleted') await this.announce(job, attempt);
    this.deps.metrics.deliveries.inc({ outcome: attempt.outcome });
    if (attempt.durationMs !== undefined)
      this.deps.metrics.deliveryDuration.observe({ outcome: attempt.outcome }, attempt.durationMs / 1000);
    const line = {
      hookId,
      accountId,
      eventId: event.id,
      outcome: attempt.outcome,
      status: attempt.statusCode,
      ms: attempt.durationMs,
      error: attempt.error,
    };
    if (attempt.outcome === 'delivered') this.deps.logger.debug(line, 'delivery');
    else this.deps.logger.info(line, 'delivery not accepted');
    return done;
  }

  // After the finish script, so only a recorded outcome is announced: the stream is a global key, in another
  // slot of a Redis Cluster than the hook's, so the two cannot be one script.
  private announce(job: DeliverJobData, attempt: RecordedAttempt): Promise<unknown> {
    return appendOutcome(this.deps.redis, this.deps.keys, {
      hookId: job.hookId,
      accountId: job.accountId,
      eventId: job.event.id,
      outcome: attempt.outcome,
      at: attempt.startedAt,
      ...(attempt.statusCode !== undefined ? { statusCode: attempt.statusCode } : {}),
      ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    });
  }
}

/**
 * The job's data as BullMQ keeps it once the outcome is recorded: ids, kind and times, no field of the event
 * (which stays only in the history). It still parses as a delivery job, so a takeover after a crash between
 * the outcome and the job's completion finds the outcome recorded and finishes quietly.
 */
export function emptiedJobData(job: DeliverJobData): string {
  const { layout, id, type } = job.event;
  return JSON.stringify({ ...job, event: { id, type, fields: {}, ...(layout ? { layout } : {}) } });
}
