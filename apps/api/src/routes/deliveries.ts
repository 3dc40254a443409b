import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { deliveryRecord, limitQuery, listOf } from '../schemas';

export function deliveryRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'listDeliveries',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/deliveries',
      summary: "The hook's delivery log, newest first",
      tag: 'hooks',
      scope: 'hook',
      query: limitQuery,
      responses: { 200: { description: 'Recorded outcomes', schema: listOf(deliveryRecord) } },
    })(async ({ hook, query }) => ({
      status: 200,
      body: { data: await deps.store.deliveryLog.list(hook.id, query.limit) },
    })),
  ];
}
