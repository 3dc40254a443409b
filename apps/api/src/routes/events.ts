import { z } from 'zod';
import { BUILT_IN_CATALOG, decimalPaths, publishAcceptor, publishEventSchema } from '@hookline/core';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

const acceptedEvent = z.object({
  id: z.string().describe('The event id hookline assigned'),
  hooks: z.array(z.string()).describe('The hooks the event was queued for'),
});

export function eventRoutes(deps: ApiDeps): Route[] {
  const catalog = deps.config.eventCatalog ?? BUILT_IN_CATALOG;
  return [
    defineRoute({
      operationId: 'publishEvent',
      method: 'POST',
      path: '/v1/accounts/{acct}/events',
      summary:
        'Publish an event to every hook of the account subscribed to its kind (all or none); the kinds and ' +
        'their data are those of GET /v1/event-types',
      tag: 'events',
      scope: 'account',
      // One body shape per kind of the catalogue, told apart by `type`.
      body: publishEventSchema(catalog),
      // A decimal's JSON number must reach the endpoint as written ("0.0" stays 0.0), so its source text is kept.
      keepNumberText: decimalPaths(catalog),
      // Every published event passes here: valid bodies skip zod (which cost the most of the API's own work).
      acceptBody: publishAcceptor(catalog),
      headers: [
        {
          name: 'traceparent',
          description:
            "W3C trace context (00-<trace id>-<parent id>-<flags>): each delivery attempt's span joins this " +
            'trace; a value that is not valid starts a new trace, and the event is accepted either way',
        },
        { name: 'tracestate', description: 'W3C trace state, carried with traceparent' },
      ],
      retryAfterLateRedis: 'send the event again with the same id (an event is accepted once)',
      otherErrors: ['CONFLICT', 'IDEMPOTENCY_CONFLICT'],
      responses: {
        202: {
          description:
            'The event is queued for every hook of the account subscribed to its kind (hooks: [] when none is)',
          schema: acceptedEvent,
        },
        200: {
          description: 'This id was accepted before: the original answer, nothing queued',
          schema: acceptedEvent,
        },
      },
    })(async ({ account, body, request }) => {
      // W3C trace context: joined when valid, ignored when not (never a 400: tracing must not cost an event).
      const { traceparent, tracestate } = request.headers;
      const trace = traceparent !== undefined ? { trace: { traceparent, tracestate } } : undefined;
      const result = await deps.producer.publish(account.id, body, trace);
      const answer = { id: result.id, hooks: result.hooks };
      if (result.duplicate) return { status: 200, body: answer };
      deps.metrics.eventsAccepted.inc({ type: body.type });
      return { status: 202, body: answer };
    }),
  ];
}
