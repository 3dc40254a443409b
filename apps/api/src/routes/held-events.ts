import { z } from 'zod';
import { decodeHeldCursor } from '@hookline/store';
import type { ApiDeps } from '../deps';
import { pageQuery } from '../query-fields';
import { defineRoute, type Route } from '../route';
import { pageOf } from '../schemas';

// A suspended hook's held events (product.md §5), as the website lists them: the same reader (store's
// held-events.ts), in the order a re-enable would deliver them, with a cursor that names the last event of a
// page, so events held meanwhile or let go from the head between pages never show twice.

const ORDER = 'in delivery order, oldest first';

const heldQuery = z.strictObject(pageQuery('events', decodeHeldCursor, { order: ORDER }));

export const heldEvent = z
  .object({
    event_id: z.string(),
    type: z.string().describe("The event's kind"),
    accepted_at: z.string().describe('When hookline accepted the event (ISO 8601, UTC)'),
    call_id: z
      .string()
      .optional()
      .describe(
        "The event's call_id, or its first field for a kind without one; absent while an erasure that reaches " +
          'the event runs (the erasure then removes the event)',
      ),
  })
  .meta({ id: 'HeldEvent' });

export function heldEventRoutes(deps: ApiDeps): Route[] {
  const { held } = deps.store;
  return [
    defineRoute({
      operationId: 'listHeldEvents',
      method: 'GET',
      path: '/v1/accounts/{acct}/hooks/{hook}/held',
      summary:
        `The events the hook holds while suspended, ${ORDER}: the order a re-enable delivers them in (while ` +
        'it is active, the events still waiting their turn). Cursor pagination: a page goes on behind the last ' +
        'event of the one before, so events held meanwhile (at the tail) or let go (from the head: delivered, ' +
        'discarded, expired) between pages never show twice. How many are held: held_count of GET …/hooks/{hook}',
      tag: 'hooks',
      scope: 'hook',
      query: heldQuery,
      responses: { 200: { description: `Held events, ${ORDER}`, schema: pageOf(heldEvent) } },
    })(async ({ hook, query }) => {
      const page = await held.page(
        hook.id,
        query.cursor ? { cursor: query.cursor } : { from: 0 },
        query.limit,
      );
      return {
        status: 200,
        body: { data: page.data, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) },
      };
    }),
  ];
}
