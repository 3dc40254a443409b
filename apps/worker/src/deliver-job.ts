import { UnrecoverableError, type Job } from 'bullmq';
import { buildDeliveryRequest, type AttemptResult, type Clock, type DeliveryRequest } from '@hookline/core';
import { parseDeliverJob, type DeliverJobData } from '@hookline/queue';
import type { AttemptLedger } from '@hookline/store';
import type { OutcomeRecorder } from './outcome-recorder';

export interface DeliverJobDeps {
  attempts: Pick<AttemptLedger, 'begin'>;
  recorder: OutcomeRecorder;
  attempt: (request: DeliveryRequest) => Promise<AttemptResult>;
  eventTypeHeader: string;
  userAgent: string;
  clock: Clock;
}

/**
 * The BullMQ processor for one event to one hook: at most one HTTP attempt, ever. A non-delivered outcome
 * fails the job without retry (attempts: 1, UnrecoverableError) so Bull Board shows it among the failed;
 * the outcome itself is a value, recorded before the job finishes.
 */
export function createDeliverJob(deps: DeliverJobDeps) {
  return async function deliverJob(job: Job<DeliverJobData>): Promise<string> {
    let data: DeliverJobData;
    try {
      data = parseDeliverJob(job.data);
    } catch (error) {
      // Nothing can be sent for data that is not a delivery; the job fails with the reason, once.
      throw outcomeError(error instanceof Error ? error.message : String(error));
    }
    // Marks the event as being attempted and reads the hook, in one step, right before the request can leave.
    const start = await deps.attempts.begin(data.hookId, data.event.id);
    const startedAt = deps.clock().getTime();
    switch (start.kind) {
      case 'hook_deleted':
      case 'already_recorded':
        return start.kind;
      case 'maybe_sent':
        await deps.recorder.record(data, {
          outcome: 'unknown',
          startedAt,
          error:
            'the worker stopped during this attempt; it may have reached the endpoint, so it is not sent again',
        });
        throw outcomeError('unknown: worker stopped mid-attempt');
    }
    const request = buildDeliveryRequest(start.target, data.event, {
      eventTypeHeader: deps.eventTypeHeader,
      userAgent: deps.userAgent,
    });
    const result = await deps.attempt(request);
    await deps.recorder.record(data, { ...result, startedAt });
    if (result.outcome !== 'delivered')
      throw outcomeError(
        `${result.outcome}${result.statusCode ? ` ${result.statusCode}` : ''}${result.error ? `: ${result.error}` : ''}`,
      );
    return 'delivered';
  };
}

/**
 * Fails the job with the outcome as its reason, once (no retry). An outcome is not a bug: BullMQ would keep
 * the error's stack for Bull Board to show, with the server's file paths, so it carries none.
 */
function outcomeError(reason: string): UnrecoverableError {
  const error = new UnrecoverableError(reason);
  error.stack = `${error.name}: ${reason}`;
  return error;
}
