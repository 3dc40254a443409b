import { erasureInput, erasureTarget, notFound } from '@hookline/core';
import { z } from 'zod';
import { auditRecorder, operatorActor } from '../audit';
import { OPERATOR, type ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

// Erasure of personal data (product.md §18). Accepting one sets the fence at once (no request of a matching
// event starts afterwards); the monitor then erases it everywhere, and the record says how many per place.
const ERASURES = '/v1/accounts/{acct}/erasures';

export const erasureCounts = z
  .object({
    history: z.number().int().describe('History records emptied to stubs (ids, times, outcome)'),
    outboxes: z.number().int().describe('Records not yet in the history database, emptied likewise'),
    queued: z.number().int().describe('Waiting or held events removed unsent, recorded `erased`'),
    inbox: z.number().int().describe('Events accepted but not yet queued for the hooks, removed'),
    retained: z.number().int().describe("Finished jobs kept for the admin area, emptied of the event's data"),
    idempotency: z.number().int().describe('Idempotency keys of erased events, removed'),
    hooks: z
      .number()
      .int()
      .describe("Hook records quoting an erased event among a suspension's failures, cleaned"),
  })
  .meta({ id: 'ErasureCounts' });

const erasure = z
  .object({
    id: z.string(),
    account_id: z.string(),
    state: z.enum(['running', 'done']),
    by: z.enum(['call_id', 'number']).describe('What it matched on; the value itself is never kept'),
    requested_by: z.string(),
    requested_at: z.string(),
    done_at: z.string().optional(),
    counts: erasureCounts,
  })
  .meta({ id: 'Erasure' });

export function erasureRoutes(deps: ApiDeps): Route[] {
  const { erasures } = deps.store;
  const audit = auditRecorder(deps);
  return [
    defineRoute({
      operationId: 'requestErasure',
      method: 'POST',
      path: ERASURES,
      summary:
        "Erase one person's data: every event of the account with this call_id, or whose from or to (or a " +
        'field the catalogue marks personal) is this number. Waiting and held events are removed (recorded `erased`) and never sent from now on; history ' +
        'records keep only ids, times and outcome; Redis keeps nothing of them',
      tag: 'erasures',
      scope: 'account',
      body: erasureInput,
      responses: {
        202: { description: 'Accepted; runs in the background', schema: z.object({ id: z.string() }) },
      },
    })(async ({ account, body, request }) => {
      // Who asked is kept with the erasure: its `erasure.done` entry names them again.
      const view = await erasures.request(account.id, erasureTarget(body), OPERATOR, {
        actor: operatorActor(deps),
        address: request.ip,
      });
      await audit(request, {
        account_id: account.id,
        action: 'erasure.requested',
        detail: { erasure_id: view.id, by: view.by },
      });
      return { status: 202, body: { id: view.id } };
    }),
    defineRoute({
      operationId: 'getErasure',
      method: 'GET',
      path: `${ERASURES}/{erasure}`,
      summary: 'Where an erasure stands, with how many records it erased in each place',
      tag: 'erasures',
      scope: 'account',
      responses: { 200: { description: 'The erasure', schema: erasure } },
    })(async ({ account, request }) => {
      const id = (request.params as { erasure?: string }).erasure ?? '';
      const view = await erasures.get(account.id, id);
      if (!view) throw notFound('Erasure');
      return { status: 200, body: view };
    }),
  ];
}
