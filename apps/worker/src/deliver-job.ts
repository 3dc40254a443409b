import { UnrecoverableError, type Job } from 'bullmq';
import { buildDeliveryRequest, type AttemptResult, type DeliveryRequest } from '@hookline/core';
import type { DeliverJobData } from '@hookline/queue';
import type { Hooks } from '@hookline/store';
import type { AttemptGuard } from './attempt-guard';
import type { OutcomeRecorder } from './outcome-recorder';

export interface DeliverJobDeps {
  hooks: Pick<Hooks, 'target'>;
  guard: AttemptGuard;
  recorder: OutcomeRecorder;
  attempt: (request: DeliveryRequest) => Promise<AttemptResult>;
  eventTypeHeader: string;
  userAgent: string;
  now: () => number;
}

/**
 * The BullMQ processor for one event to one hook: at most one HTTP attempt, ever. A non-delivered outcome
 * fails the job without retry (attempts: 1, UnrecoverableError) so Bull Board shows it among the failed;
 * the outcome itself is a value, recorded before the job finishes.
 */
export function createDeliverJob(deps: DeliverJobDeps) {
  return async function deliverJob(job: Job<DeliverJobData>): Promise<string> {
    const data = job.data;
    const target = await deps.hooks.target(data.hookId);
    if (!target) return 'hook_deleted'; // deleted after the event was accepted: nowhere to deliver
    const request = buildDeliveryRequest(target, data.event, {
      eventTypeHeader: deps.eventTypeHeader,
      userAgent: deps.userAgent,
    });
    // The guard is taken as late as possible, right before the request can leave.
    const start = await deps.guard.begin(data.hookId, data.event.id);
    const startedAt = deps.now();
    if (start === 'already_recorded') return 'already_recorded';
    if (start === 'maybe_sent') {
      await deps.recorder.record(data, {
        outcome: 'unknown',
        startedAt,
        error:
          'the worker stopped during this attempt; it may have reached the endpoint, so it is not sent again',
      });
      await deps.guard.finish(data.hookId, data.event.id);
      throw new UnrecoverableError('unknown: worker stopped mid-attempt');
    }
    const result = await deps.attempt(request);
    await deps.recorder.record(data, { ...result, startedAt });
    await deps.guard.finish(data.hookId, data.event.id);
    if (result.outcome !== 'delivered')
      throw new UnrecoverableError(
        `${result.outcome}${result.statusCode ? ` ${result.statusCode}` : ''}${result.error ? `: ${result.error}` : ''}`,
      );
    return 'delivered';
  };
}
