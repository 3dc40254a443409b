import { performance } from 'node:perf_hooks';
import {
  buildAttemptRecord,
  buildDeliveryRequest,
  deliverySpanStatus,
  maskAuth,
  maskedAuthorizationHeader,
  newId,
  newTraceContext,
  recordRequest,
  traceIdsOf,
  formatEventTimestamp,
  SAMPLE_CALL_CREATED,
  type AttemptRecord,
  type AttemptResult,
  type Clock,
  type DeliverableEvent,
  type DeliveryRequest,
  type Tracing,
} from '@hookline/core';
import type { HistoryOutbox } from '@hookline/redis';
import type { HookTarget } from '@hookline/store';

export interface ProbeDeps {
  /**
   * One HTTP attempt (the deliverer: deadline, network policy); `began`, the probe's start on the
   * `performance.now()` stopwatch, starts its deadline, which an OAuth 2.0 token request shares.
   */
  readonly attempt: (request: DeliveryRequest, began?: number) => Promise<AttemptResult>;
  /** The hook's history outbox, where the probe is recorded like an attempt. */
  readonly outbox: Pick<HistoryOutbox, 'append'>;
  readonly eventTypeHeader: string;
  /** The deliveries' User-Agent (deliveryUserAgent of the brand): a probe is sent as a delivery is. */
  readonly userAgent: string;
  readonly clock: Clock;
  /** The attempt's `hookline.delivery` span (trigger `probe`, a trace of its own), with an exporter. */
  readonly tracing?: Tracing;
  /**
   * HOOKLINE_TRACE_PROPAGATE: the probe carries `traceparent` as a delivery does, naming its span, or without an
   * exporter the root of a new trace, whose ids its record keeps.
   */
  readonly propagateTrace?: boolean;
  /**
   * An OAuth 2.0 hook's token (the deliverer's OAuthTokens, through the same policy and proxy). Without one, the
   * probe is an `error` with the reason and nothing is sent to the endpoint.
   */
  readonly oauthToken?: (
    owner: {
      id: string;
      version: number;
      auth: Extract<HookTarget['auth'], { scheme: 'oauth2' }>;
    },
    began?: number,
  ) => Promise<
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
  // One deadline for the probe, its OAuth 2.0 token request included, as for a delivery (deliver-event.ts).
  const began = performance.now();
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
  const attemptId = newId('att', startedAt.getTime());
  const span = deps.tracing?.start('hookline.delivery', undefined, {
    'hookline.account_id': target.accountId,
    'hookline.hook_id': target.id,
    'hookline.event_id': event.id,
    'hookline.event_kind': event.type,
    'hookline.attempt_id': attemptId,
    'hookline.trigger': 'probe',
  });
  // As a delivery's (the worker's delivery-trace): the span's context, or with propagation a new trace's root.
  const outbound = span?.context ?? (deps.propagateTrace ? newTraceContext() : undefined);
  const ids = traceIdsOf(span, outbound);
  let oauthToken: string | undefined;
  let noToken: AttemptResult | undefined;
  if (target.auth.scheme === 'oauth2' && deps.oauthToken) {
    const got = await deps.oauthToken({ id: target.id, version: target.version, auth: target.auth }, began);
    if (got.kind === 'token') oauthToken = got.token;
    else
      noToken = {
        outcome: 'error',
        durationMs: got.result.durationMs,
        error: `${got.kind === 'not_sent' ? 'not sent: ' : ''}${got.result.error ?? 'no OAuth 2.0 token'}`,
      };
  }
  // Built and signed as a delivery is: a signing hook's probe carries the signatures of its send time.
  const request = buildDeliveryRequest(target, event, {
    eventTypeHeader: deps.eventTypeHeader,
    userAgent: deps.userAgent,
    sentAt: deps.clock(),
    ...(oauthToken !== undefined ? { oauthToken } : {}),
    ...(deps.propagateTrace && outbound ? { traceContext: outbound } : {}),
  });
  const result = noToken ?? (await deps.attempt(request, began));
  const record = buildAttemptRecord(
    { accountId: target.accountId, hookId: target.id, event, trigger: 'probe', attemptId },
    {
      ...result,
      at: startedAt,
      ...(ids ? { trace: ids } : {}),
      ...(result.outcome === 'blocked' || noToken
        ? {}
        : { request: recordRequest(request, maskedAuthorizationHeader(maskAuth(target.auth))) }),
    },
  );
  if (span) {
    span.set({ 'hookline.outcome': result.outcome, 'http.response.status_code': result.statusCode });
    span.end(deliverySpanStatus(result.outcome, result.statusCode, result.error));
  }
  await deps.outbox.append(target.id, [record]);
  return record;
}
