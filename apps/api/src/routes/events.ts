import { z } from 'zod';
import { acceptPublishEventInput, publishEventInput } from '@hookline/core';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const acceptedEvent = z.object({
  id: z.string().describe('The event id hookline assigned'),
  hooks: z.array(z.string()).describe('The hooks the event was queued for'),
});

export function eventRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'publishEvent',
      method: 'POST',
      path: '/v1/accounts/{acct}/events',
      summary: 'Publish an event to every hook of the account (all or none)',
      tag: 'events',
      scope: 'account',
      body: publishEventInput,
      // The rate's JSON number must reach the endpoint as written ("0.0" stays 0.0), so its source text is kept.
      keepNumberText: ['data.rate'],
      // Every published event passes here: valid bodies skip zod (which cost the most of the API's own work).
      acceptBody: acceptPublishEventInput,
      bodyDocs: {
        'data.rate': {
          mode: 'replace',
          required: true,
          schema: {
            description:
              'Decimal, as a JSON number or a string; its text is delivered as given (0.0 stays 0.0)',
            anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$' }],
          },
        },
        'data.date': {
          schema: {
            type: 'string',
            pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{7}$',
            description: 'YYYY-MM-DDThh:mm:ss.fffffff, no zone; the current UTC time when omitted',
          },
        },
        id: { schema: { description: 'Idempotency key: the same id within 24 h is accepted only once' } },
      },
      otherErrors: ['CONFLICT', 'IDEMPOTENCY_CONFLICT'],
      responses: {
        202: { description: 'The event is queued for every hook of the account', schema: acceptedEvent },
        200: {
          description: 'This id was accepted before: the original answer, nothing queued',
          schema: acceptedEvent,
        },
      },
    })(async ({ account, body }) => {
      const result = await deps.producer.publish(account.id, body);
      const answer = { id: result.id, hooks: result.hooks };
      if (result.duplicate) return { status: 200, body: answer };
      deps.metrics.eventsAccepted.inc({ type: body.type });
      return { status: 202, body: answer };
    }),
  ];
}
