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
  /**
   * An OAuth 2.0 hook's token (the deliverer's OAuthTokens, through the same policy and proxy). Without one, the
   * probe is an `error` with the reason and nothing is sent to the endpoint.
   */
  readonly oauthToken?: (owner: {
    id: string;
    version: number;
    auth: Extract<HookTarget['auth'], { scheme: 'oauth2' }>;
  }) => Promise<
    | { readonly kind: 'token'; readonly token: string }
    | { readonly kind: 'failed' | 'not_sent'; readonly result: { error?: string; durationMs: number } }
  >;
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
  let oauthToken: string | undefined;
  let noToken: AttemptResult | undefined;
  if (target.auth.scheme === 'oauth2' && deps.oauthToken) {
    const got = await deps.oauthToken({ id: target.id, version: target.version, auth: target.auth });
    if (got.kind === 'token') oauthToken = got.token;
    else
      noToken = {
        outcome: 'error',
        durationMs: got.result.durationMs,
        error: `${got.kind === 'not_sent' ? 'not sent: ' : ''}${got.result.error ?? 'no OAuth 2.0 token'}`,
      };
  }
  const request = buildDeliveryRequest(target, event, {
    eventTypeHeader: deps.eventTypeHeader,
    userAgent: USER_AGENT,
    ...(oauthToken !== undefined ? { oauthToken } : {}),
  });
  const result = noToken ?? (await deps.attempt(request));
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
    ...(result.outcome === 'blocked' || noToken
      ? {}
      : { request: recordRequest(request, maskedAuthorizationHeader(maskAuth(target.auth))) }),
    event_fields: event.fields,
  };
  await deps.history.append(target.id, [record]);
  return record;
}
