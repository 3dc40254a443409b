import { notFound, type AttemptRecord } from '@hookline/core';
import type { ApiDeps } from '../deps';
import {
  accountSearchQuery,
  attemptDetail,
  deliveryPage,
  healthQuery,
  historyQuery,
  hookHealthView,
  toFilter,
} from '../history-schemas';
import { defineRoute, type Route } from '../route';

const ATTEMPT_ID = /^att_[0-9a-z]{8,40}$/;

export function deliveryRoutes(deps: ApiDeps): Route[] {
  const { history } = deps;
  return [
    defineRoute({
      operationId: 'listDeliveries',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries',
      summary: "The hook's delivery log, newest first, with filters and cursor pagination",
      tag: 'deliveries',
      scope: 'hook',
      query: historyQuery,
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
        "Attempts across every hook of the account, by call id or event id: did call X's event arrive?",
      tag: 'deliveries',
      scope: 'account',
      query: accountSearchQuery,
      responses: { 200: { description: 'Attempts, newest first', schema: deliveryPage } },
    })(async ({ account, query }) => {
      const { filter, page } = toFilter(query);
      return { status: 200, body: await history.searchAccount(account.id, filter, page) };
    }),
    defineRoute({
      operationId: 'getDelivery',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}',
      summary: 'One attempt in full: the request as sent (credentials masked) and the response',
      tag: 'deliveries',
      scope: 'hook',
      responses: { 200: { description: 'The attempt', schema: attemptDetail } },
    })(async ({ account, hook, request }) => {
      const attemptId = (request.params as { attempt_id?: string }).attempt_id ?? '';
      const record = ATTEMPT_ID.test(attemptId)
        ? await history.attempt(account.id, hook.id, attemptId)
        : undefined;
      if (!record) throw notFound('Attempt');
      return { status: 200, body: detail(record) };
    }),
    defineRoute({
      operationId: 'hookHealth',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/health',
      summary: "The hook's health: attempts, success rate, latency, outcomes, last error, an hourly series",
      tag: 'deliveries',
      scope: 'hook',
      query: healthQuery,
      responses: { 200: { description: 'Health over the window', schema: hookHealthView } },
    })(async ({ hook, query }) => ({ status: 200, body: await history.health(hook.id, query.hours) })),
  ];
}

function detail(record: AttemptRecord) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { account_id, response_excerpt, ...rest } = record;
  const response =
    record.status_code !== undefined || response_excerpt !== undefined
      ? {
          ...(record.status_code !== undefined ? { status_code: record.status_code } : {}),
          ...(response_excerpt !== undefined ? { body_excerpt: response_excerpt } : {}),
        }
      : undefined;
  return { ...rest, ...(response ? { response } : {}) };
}
