import { performance } from 'node:perf_hooks';
import {
  buildDeliveryRequest,
  type ErasureTags,
  maskAuth,
  maskedAuthorizationHeader,
  recordRequest,
  type Clock,
  type SendResult,
  type DeliveryRequest,
  type Tracing,
} from '@hookline/core';
import { parseDeliverJob, type DeliverJobData } from '@hookline/queue';
import type { ActiveJob, JobEnd } from '@hookline/redis';
import { retryWrite, type DeliveryEnd, type JobCompleting } from '@hookline/scheduler';
import type { OAuthTokens } from '@hookline/delivery';
import type { AttemptLedger, BegunAttempt } from '@hookline/store';
import type { Logger } from '@hookline/telemetry';
import type { OutcomeRecorder, RecordedAttempt } from './outcome-recorder';
import { endDeliveryTrace, startDeliveryTrace, type DeliveryTrace } from './delivery-trace';

export interface DeliverEventDeps {
  attempts: Pick<AttemptLedger, 'begin' | 'withdraw' | 'release'>;
  /** The erasure fence's tags (the store's): an event's are sent with its mark while an erasure runs on its hook. */
  erasureTags: ErasureTags;
  recorder: OutcomeRecorder;
  /**
   * The deliverer's attempt. `began` (the attempt's start on the `performance.now()` stopwatch) starts its
   * deadline and its duration: an OAuth 2.0 hook's token request is part of the attempt.
   */
  attempt: (request: DeliveryRequest, began?: number) => Promise<SendResult>;
  /** OAuth 2.0 tokens of the hooks that use them (the deliverer's OAuthTokens). */
  oauth?: Pick<OAuthTokens, 'token' | 'forget'>;
  eventTypeHeader: string;
  userAgent: string;
  /**
   * The attempt's deadline, from its start (an OAuth 2.0 token request included): a request starts only while
   * the job's lock outlasts a whole deadline by `sendMarginMs`.
   */
  deadlineMs: number;
  sendMarginMs: number;
  clock: Clock;
  /** `hookline.delivery` spans, when an exporter is configured. */
  tracing?: Tracing;
  /** HOOKLINE_TRACE_PROPAGATE: the request carries the attempt's `traceparent` (and `tracestate`). */
  propagateTrace?: boolean;
  /** How long a mark whose call fails is asked for again from the first failure: the job's lock (write-retry.ts). */
  markRetryMs: number;
  logger: Logger;
}

/**
 * One event to one hook: at most one HTTP attempt, ever. A non-delivered outcome fails the job without
 * retry so Bull Board shows it among the failed; the outcome is recorded by the script that finishes the job
 * (`completing`, from the consumer: one round trip for both).
 */
export function createDeliverEvent(deps: DeliverEventDeps) {
  /** A call about the job's attempt mark, tried again while it fails, for the job's lock (write-retry.ts). */
  function retried<T>(hookId: string, job: ActiveJob, what: string, call: () => Promise<T>): Promise<T> {
    return retryWrite(call, deps.markRetryMs, (error, n) =>
      deps.logger.warn({ err: error, hookId, jobId: job.id, n }, `${what} failed; retrying`),
    );
  }

  /** Records the outcome and, in the same script, ends the job as `end`. */
  async function recordAndEnd(
    data: DeliverJobData,
    fence: { jobId: string; token: string },
    attempt: RecordedAttempt,
    end: JobEnd,
    completing: JobCompleting,
  ): Promise<DeliveryEnd<BegunAttempt>> {
    const done = await deps.recorder.record(data, fence, attempt, completing.prepare(end));
    if (done.finished === 'fenced') return lostEnd;
    if (done.finished === 'recorded_deleted') return deletedEnd;
    if (done.again) return { kind: 'finished', end, again: true };
    return {
      kind: 'finished',
      end,
      jobReply: done.jobReply,
      ...(done.next ? { next: done.next } : {}),
      ...(done.leaseReleased ? { leaseReleased: true as const } : {}),
    };
  }

  /**
   * `begun`: the attempt the script that took the job marked already (its take, or the finish of the job
   * before it; the consumer hands it on the job's first delivery only); otherwise the attempt is marked here.
   */
  return async function deliverEvent(
    job: ActiveJob,
    completing: JobCompleting,
    begun?: BegunAttempt,
  ): Promise<DeliveryEnd<BegunAttempt>> {
    let data: DeliverJobData;
    try {
      data = parseDeliverJob(JSON.parse(job.data));
    } catch (error) {
      // Nothing can be sent for data that is not a delivery; the job fails with the reason, once.
      return failed(error instanceof Error ? error.message : String(error));
    }
    const fence = { jobId: job.id, token: job.token };
    let askedAt = begun?.askedAt ?? performance.now();
    // Marks the event as being attempted and reads the hook, in one step, right before the request can leave.
    // The job id names the attempt: the event id itself, or, for a send-again, the event id and the new attempt's.
    // The event's erasure tags are keyed hashes: computed only if an erasure is running on the hook.
    // A mark whose call fails may have been written, its reply lost (a failover that outlasted the client's
    // own retries): asked again by the same holder, it is told to send. Given up, the holding ended with the job
    // marked under its lock, and whoever took it over recorded it `unknown`, never sent.
    const start =
      begun?.start ??
      (await retried(data.hookId, job, 'marking an attempt', () => {
        askedAt = performance.now();
        return deps.attempts.begin(data.hookId, job.id, fence, () =>
          deps.erasureTags.ofEvent(data.event.fields, data.event),
        );
      }));
    const startedAt = deps.clock().getTime();
    // The attempt's one deadline and its duration count from here, on the stopwatch: an OAuth 2.0 hook's token
    // request included, so the endpoint gets what the token left (a deadline each held the queue twice as long).
    const began = performance.now();
    // An erasure accepted before the request leaves reaches the event: it is never sent, only recorded.
    const erased = () =>
      recordAndEnd(
        data,
        fence,
        { outcome: 'erased', startedAt, error: 'erased on request before it was sent' },
        { kind: 'completed', value: 'erased' },
        completing,
      );
    switch (start.kind) {
      case 'fenced':
        return { kind: 'lost', why: 'the job lock is no longer ours' };
      case 'hook_deleted':
      case 'already_recorded':
        return { kind: 'completed', value: start.kind };
      case 'erased':
        return erased();
      case 'maybe_sent': {
        // The take-over's own span: the attempt that died took its span with it, unexported.
        const trace = startDeliveryTrace(deps.tracing, data, startedAt);
        const error =
          'the worker stopped during this attempt; it may have reached the endpoint, so it is not sent again';
        const ended = await recordAndEnd(
          data,
          fence,
          {
            outcome: 'unknown',
            startedAt,
            error,
            attemptId: trace.attemptId,
            ...(trace.ids ? { trace: trace.ids } : {}),
          },
          failed('unknown: worker stopped mid-attempt'),
          completing,
        );
        endDeliveryTrace(trace, 'unknown', undefined, error);
        return ended;
      }
      case 'unacknowledged':
        // The mark is taken back and nothing was sent: the consumer lets go of the job, whose next taking
        // (at once, not after the lock) tries again.
        return { kind: 'withdrawn', why: 'no replica acknowledged the attempt mark in time; nothing sent' };
      case 'unsendable': {
        // Nothing left: recorded as a failure naming the cause, which counts toward the hook's suspension. An
        // attempt all the same: its span in the producer's trace, as the history record names it.
        const trace = startDeliveryTrace(deps.tracing, data, startedAt);
        const ended = await recordAndEnd(
          data,
          fence,
          {
            outcome: 'failed',
            startedAt,
            error: start.reason,
            attemptId: trace.attemptId,
            ...(trace.ids ? { trace: trace.ids } : {}),
          },
          failed(`failed: ${start.reason}`),
          completing,
        );
        endDeliveryTrace(trace, 'failed', undefined, start.reason);
        return ended;
      }
    }
    // An OAuth 2.0 hook's token first (cached, or asked for through the same policy and proxy): without one,
    // nothing is sent to the endpoint.
    let lockMsLeft = start.lockMsLeft;
    let oauthToken: string | undefined;
    /** How long getting the OAuth 2.0 token took of the deadline, when one was asked for. */
    let tokenMs: number | undefined;
    let trace: DeliveryTrace | undefined;
    const auth = start.target.auth;
    if (auth.scheme === 'oauth2' && deps.oauth) {
      // The attempt's span covers getting the token: a token that cannot be had is the attempt's outcome, in the
      // producer's trace like any other. A span left unended (nothing sent, or the job lost) is never exported.
      trace = startDeliveryTrace(deps.tracing, data, startedAt, deps.propagateTrace);
      const got = await deps.oauth.token({ id: start.target.id, version: start.target.version, auth }, began);
      if (got.kind === 'not_sent') {
        const released = await deps.attempts.release(data.hookId, job.id, fence);
        return released === 'fenced' ? lostEnd : { kind: 'not_sent', result: got.result };
      }
      let noToken = got.kind === 'failed' ? got.result : undefined;
      if (got.kind === 'token') {
        oauthToken = got.token;
        // Asking for the token took time: the lock is measured again (the same holder asking again is told to
        // send; our lock has been renewed meanwhile).
        askedAt = performance.now();
        // The fence again: an erasure accepted while the token was being asked for (up to the whole deadline)
        // finds a request that has not started, and it must not.
        const again = await deps.attempts.begin(data.hookId, job.id, fence, () =>
          deps.erasureTags.ofEvent(data.event.fields, data.event),
        );
        if (again.kind === 'erased') return erased();
        if (again.kind !== 'send') return { kind: 'lost', why: `lost while getting a token: ${again.kind}` };
        lockMsLeft = again.lockMsLeft;
        tokenMs = Math.round(performance.now() - began);
        // The token took the whole deadline: the endpoint is not asked, and the outcome says whose the time was
        // (an `error`, as when the token request itself runs out of time), not the endpoint's `timed_out`.
        if (tokenMs >= deps.deadlineMs)
          noToken = {
            outcome: 'error',
            durationMs: tokenMs,
            error: `no OAuth 2.0 token in time from ${auth.token_url}: it took ${tokenMs} ms of the ${deps.deadlineMs} ms deadline; nothing was sent to the endpoint`,
          };
      }
      if (noToken) {
        const ended = await recordAndEnd(
          data,
          fence,
          {
            ...noToken,
            startedAt,
            attemptId: trace.attemptId,
            ...(trace.ids ? { trace: trace.ids } : {}),
          },
          failed(`error: ${noToken.error}`),
          completing,
        );
        endDeliveryTrace(trace, noToken.outcome, noToken.statusCode, noToken.error);
        return ended;
      }
    }
    // The request may leave only while nobody else can take the job over before its deadline: this process
    // may have stalled (a GC pause, a frozen container) between marking the attempt and here. Not sending
    // leaves the attempt marked; whoever takes the job over records it `unknown`.
    const lockLeft = lockMsLeft - (performance.now() - askedAt);
    if (lockLeft < deps.deadlineMs + deps.sendMarginMs) {
      // Nothing left: the mark is taken back (while the lock is still ours), so the take-over sends the event
      // instead of recording `unknown` (a wait for replica acknowledgements during a failover can end here).
      const why = `stalled before sending: ${Math.round(lockLeft)} ms of lock left`;
      // Tried again like the mark: given up, the mark would stay for the take-over to record `unknown`.
      const withdrawn = await retried(
        data.hookId,
        job,
        'taking a mark back',
        async () => (await deps.attempts.withdraw?.(data.hookId, job.id, fence)) ?? false,
      );
      return withdrawn ? { kind: 'withdrawn', why } : { kind: 'lost', why };
    }
    trace ??= startDeliveryTrace(deps.tracing, data, startedAt, deps.propagateTrace);
    const request = buildDeliveryRequest(start.target, data.event, {
      eventTypeHeader: deps.eventTypeHeader,
      userAgent: deps.userAgent,
      sentAt: deps.clock(),
      ...(deps.propagateTrace && trace.outbound ? { traceContext: trace.outbound } : {}),
      ...(oauthToken !== undefined ? { oauthToken } : {}),
    });
    const sentResult = await deps.attempt(request, began);
    // A timeout of an OAuth 2.0 hook says how much of the deadline the token took, when that is worth saying (a
    // tenth or more; a cached token takes a Redis round trip): not all of the time was the endpoint's.
    const result =
      sentResult.outcome === 'timed_out' && tokenMs !== undefined && tokenMs * 10 >= deps.deadlineMs
        ? { ...sentResult, error: `${sentResult.error}; the OAuth 2.0 token took ${tokenMs} ms of it` }
        : sentResult;
    // A refused token is dropped, so the next event gets a fresh one; this event's outcome is the 401.
    if (oauthToken !== undefined && result.statusCode === 401) deps.oauth?.forget(data.hookId);
    if (result.outcome === 'not_sent') {
      // Not one byte left: no outcome, no history record, nothing toward suspension. Whoever sends the event
      // later finds it never attempted, so that is its first attempt, never a resend.
      const released = await deps.attempts.release(data.hookId, job.id, fence);
      return released === 'fenced' ? lostEnd : { kind: 'not_sent', result };
    }
    // Kept with the outcome as sent, but with the credentials masked: the history never holds a secret.
    const sent =
      result.outcome === 'blocked'
        ? {}
        : { request: recordRequest(request, maskedAuthorizationHeader(maskAuth(start.target.auth))) };
    const end: JobEnd =
      result.outcome === 'delivered'
        ? { kind: 'completed', value: 'delivered' }
        : failed(
            `${result.outcome}${result.statusCode ? ` ${result.statusCode}` : ''}${result.error ? `: ${result.error}` : ''}`,
          );
    const ended = await recordAndEnd(
      data,
      fence,
      {
        ...result,
        startedAt,
        ...sent,
        attemptId: trace.attemptId,
        ...(trace.ids ? { trace: trace.ids } : {}),
      },
      end,
      completing,
    );
    endDeliveryTrace(trace, result.outcome, result.statusCode, result.error);
    return ended;
  };
}

const lostEnd: DeliveryEnd<BegunAttempt> = {
  kind: 'lost',
  why: 'the job lock expired during the attempt, or was taken over',
};
// The job went with its hook; the outcome is recorded all the same (attempt-finish.lua).
const deletedEnd: DeliveryEnd<BegunAttempt> = {
  kind: 'lost',
  why: 'the hook was deleted during the attempt; its outcome is recorded',
};

/** The outcome is the failed job's reason, as Bull Board shows it: a sentence, never a stack. */
function failed(reason: string): Extract<JobEnd, { kind: 'failed' }> {
  return { kind: 'failed', reason };
}
