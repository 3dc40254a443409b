import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  HooklineError,
  newId,
  notFound,
  resendableEvent,
  resendRefusal,
  traceOfRecord,
  type AttemptRecord,
  type DeliverableEvent,
} from '@hookline/core';
import { auditRecorder } from '../audit';
import type { ApiDeps } from '../deps';
import {
  attemptDetail,
  deliveryPage,
  healthQuery,
  historyQuery,
  hookHealthView,
  toFilter,
} from '../history-schemas';
import { defineRoute, type Route } from '../route';

const ATTEMPT_ID = /^att_[0-9a-z]{8,40}$/;
const resent = z.object({
  attempt_id: z.string().describe('The new attempt: its record appears under this id'),
});

export function deliveryRoutes(deps: ApiDeps): Route[] {
  const { history } = deps;
  const audit = auditRecorder(deps);
  /** The path's attempt, of this hook, or of any hook of the account (a deleted one's too); else a 404. */
  const attemptOf = async (accountId: string, hookId: string | undefined, request: FastifyRequest) => {
    const attemptId = (request.params as { attempt_id?: string }).attempt_id ?? '';
    const record = ATTEMPT_ID.test(attemptId)
      ? await history.attempt(accountId, hookId, attemptId)
      : undefined;
    if (!record) throw notFound('Attempt');
    return record;
  };
  return [
    defineRoute({
      operationId: 'listDeliveries',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries',
      summary: "The hook's delivery log, newest first, with filters and cursor pagination",
      tag: 'deliveries',
      scope: 'hook',
      query: historyQuery,
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'Attempts, newest first', schema: deliveryPage } },
    })(async ({ hook, query }) => {
      const { filter, page } = toFilter(query);
      return { status: 200, body: await history.listForHook(hook.id, filter, page) };
    }),
    defineRoute({
      operationId: 'searchDeliveries',
      method: 'GET',
      path: '/v1/accounts/{acct}/deliveries',
      summary:
        "The account's delivery log: every hook's attempts, newest first, with the same filters and cursor " +
        "pagination as a hook's log, none required (call_id: did call X's event reach every endpoint?)",
      tag: 'deliveries',
      scope: 'account',
      query: historyQuery,
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'Attempts, newest first', schema: deliveryPage } },
    })(async ({ account, query }) => {
      const { filter, page } = toFilter(query);
      return { status: 200, body: await history.listForAccount(account.id, filter, page) };
    }),
    defineRoute({
      operationId: 'getDelivery',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}',
      summary: 'One attempt in full: the request as sent (credentials masked) and the response',
      tag: 'deliveries',
      scope: 'hook',
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'The attempt', schema: attemptDetail } },
    })(async ({ account, hook, request }) => ({
      status: 200,
      body: detail(await attemptOf(account.id, hook.id, request)),
    })),
    defineRoute({
      operationId: 'getAccountDelivery',
      method: 'GET',
      path: '/v1/accounts/{acct}/deliveries/{attempt_id}',
      summary:
        "One attempt of any of the account's hooks in full, a deleted hook's included (its attempts stay in the " +
        "account's log): the same answer as …/hooks/{hook}/deliveries/{attempt_id}, whose hook_id it names",
      tag: 'deliveries',
      scope: 'account',
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'The attempt', schema: attemptDetail } },
    })(async ({ account, request }) => ({
      status: 200,
      body: detail(await attemptOf(account.id, undefined, request)),
    })),
    defineRoute({
      operationId: 'resendDelivery',
      method: 'POST',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}/resend',
      summary:
        "Send this attempt's event again (same event id and body), once, at the tail of the hook's queue: " +
        'after the events queued before it; held while the hook is suspended. Never automatic. With an ' +
        'Idempotency-Key, a retry sends nothing more.',
      tag: 'deliveries',
      scope: 'hook',
      idempotent: true,
      otherErrors: ['CONFLICT', 'HISTORY_UNAVAILABLE'],
      responses: {
        202: {
          description: 'Queued (with a key given before: the first request’s answer, nothing queued)',
          schema: resent,
        },
      },
    })(async ({ account, hook, request, requestKey }) => {
      const record = await attemptOf(account.id, hook.id, request);
      const event = eventOf(record);
      const sent = await deps.producer.resend(
        account.id,
        hook.id,
        event,
        newId('att'),
        'manual',
        traceOfRecord(record),
        requestKey ? { requestKey } : {},
      );
      // A retry changed nothing: the first request's entry stands alone.
      if (!sent.duplicate)
        await audit(request, {
          account_id: account.id,
          action: 'hook.resent',
          hook_id: hook.id,
          detail: { attempt_id: record.attempt_id, new_attempt_id: sent.attemptId },
        });
      return { status: 202, body: { attempt_id: sent.attemptId } };
    }),
    defineRoute({
      operationId: 'hookHealth',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/health',
      summary: "The hook's health: attempts, success rate, latency, outcomes, last error, an hourly series",
      tag: 'deliveries',
      scope: 'hook',
      query: healthQuery,
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'Health over the window', schema: hookHealthView } },
    })(async ({ hook, query }) => ({ status: 200, body: await history.health(hook.id, query.hours) })),
  ];
}

/** The event an attempt was of, as it was delivered; a conflict when it was erased or the record does not keep it. */
function eventOf(record: AttemptRecord): DeliverableEvent {
  if (resendRefusal(record) === 'erased')
    throw new HooklineError(
      'CONFLICT',
      "This attempt's event was erased on request (personal data): it cannot be sent again",
    );
  const event = resendableEvent(record);
  if (!event)
    throw new HooklineError(
      'CONFLICT',
      'This attempt cannot be sent again: its record does not keep the event (it was made by an older version)',
    );
  return event;
}

function detail(record: AttemptRecord) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { account_id, response_excerpt, response_headers, response_headers_dropped, ...rest } = record;
  const response =
    record.status_code !== undefined || response_excerpt !== undefined || response_headers !== undefined
      ? {
          ...(record.status_code !== undefined ? { status_code: record.status_code } : {}),
          ...(response_headers !== undefined ? { headers: response_headers } : {}),
          ...(response_headers_dropped ? { headers_dropped: response_headers_dropped } : {}),
          ...(response_excerpt !== undefined ? { body_excerpt: response_excerpt } : {}),
        }
      : undefined;
  return { ...rest, ...(response ? { response } : {}) };
}
