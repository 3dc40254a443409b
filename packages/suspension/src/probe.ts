import {
  buildAttemptRecord,
  buildDeliveryRequest,
  maskAuth,
  maskedAuthorizationHeader,
  newId,
  recordRequest,
  formatEventTimestamp,
  SAMPLE_CALL_CREATED,
  USER_AGENT,
  type AttemptRecord,
  type AttemptResult,
  type Clock,
  type DeliverableEvent,
  type DeliveryRequest,
} from '@hookline/core';
import type { HistoryOutbox } from '@hookline/redis';
import type { HookTarget } from '@hookline/store';

export interface ProbeDeps {
  /** One HTTP attempt (the deliverer: deadline, network policy). */
  readonly attempt: (request: DeliveryRequest) => Promise<AttemptResult>;
  /** The hook's history outbox, where the probe is recorded like an attempt. */
  readonly outbox: Pick<HistoryOutbox, 'append'>;
  readonly eventTypeHeader: string;
  readonly clock: Clock;
}

/**
 * One sample call_created to a suspended hook, sent now and outside its queue (which stays paused), recorded
 * in its history with trigger `probe`: before re-enabling, the customer learns whether the endpoint is back.
 */
export async function probeHook(deps: ProbeDeps, target: HookTarget): Promise<AttemptRecord> {
  const startedAt = deps.clock();
  const id = newId('evt', startedAt.getTime());
  const event: DeliverableEvent = {
    id,
    type: 'call_created',
    fields: {
      ...SAMPLE_CALL_CREATED.fields,
      call_id: `probe-${id.slice(-8)}`,
      date: formatEventTimestamp(startedAt),
    },
  };
  // Built and signed as a delivery is: a signing hook's probe carries the signatures of its send time.
  const request = buildDeliveryRequest(target, event, {
    eventTypeHeader: deps.eventTypeHeader,
    userAgent: USER_AGENT,
    sentAt: deps.clock(),
  });
  const result = await deps.attempt(request);
  const record = buildAttemptRecord(
    { accountId: target.accountId, hookId: target.id, event, trigger: 'probe' },
    {
      ...result,
      at: startedAt,
      ...(result.outcome === 'blocked'
        ? {}
        : { request: recordRequest(request, maskedAuthorizationHeader(maskAuth(target.auth))) }),
    },
  );
  await deps.outbox.append(target.id, [record]);
  return record;
}
