import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { activityEntry, limitQuery, listOf } from '../schemas';

export function activityRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'listActivity',
      method: 'GET',
      path: '/v1/accounts/{acct}/activity',
      summary: "The account's activity feed (hooks created, changed, suspended, enabled…), newest first",
      tag: 'accounts',
      scope: 'account',
      query: limitQuery,
      responses: { 200: { description: 'Activity entries', schema: listOf(activityEntry) } },
    })(async ({ account, query }) => ({
      status: 200,
      body: { data: await deps.store.activity.list(account.id, query.limit) },
    })),
  ];
}
