import {
  buildDeliveryRequest,
  maskAuth,
  maskedAuthorizationHeader,
  newId,
  recordRequest,
  formatEventTimestamp,
  SAMPLE_CALL_CREATED,
  searchKeyOf,
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
  readonly history: Pick<HistoryOutbox, 'append'>;
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
  const callId = searchKeyOf(event);
  const record: AttemptRecord = {
    attempt_id: newId('att', startedAt.getTime()),
    event_id: event.id,
    event_type: event.type,
    ...(callId !== undefined ? { call_id: callId } : {}),
    trigger: 'probe',
    outcome: result.outcome,
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : {}),
    duration_ms: result.durationMs,
    attempted_at: startedAt.toISOString(),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.responseExcerpt ? { response_excerpt: result.responseExcerpt } : {}),
    account_id: target.accountId,
    hook_id: target.id,
    ...(result.outcome === 'blocked'
      ? {}
      : { request: recordRequest(request, maskedAuthorizationHeader(maskAuth(target.auth))) }),
    event_fields: event.fields,
  };
  await deps.history.append(target.id, [record]);
  return record;
}
