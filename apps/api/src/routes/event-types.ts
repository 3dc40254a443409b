import { z } from 'zod';
import { BUILT_IN_CATALOG, FIELD_TYPES } from '@hookline/core';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { listOf } from '../schemas';

const eventType = z
  .object({
    name: z.string().describe('The kind, as sent in EventType and the event type header'),
    description: z.string().optional(),
    source: z
      .enum(['producer', 'hookline'])
      .describe(
        'producer: published by the phone system, hooks subscribe to it; hookline: an operator notice',
      ),
    built_in: z.boolean(),
    fields: z
      .array(
        z.object({
          name: z.string(),
          type: z.enum(FIELD_TYPES),
          optional: z.boolean(),
          personal: z
            .boolean()
            .optional()
            .describe('true: personal data, matched by an erasure by number (marked in the catalogue)'),
        }),
      )
      .describe('The data fields in body order, after EventType'),
  })
  .meta({ id: 'EventType' });

export function eventTypeRoutes(deps: ApiDeps): Route[] {
  const catalog = deps.config.eventCatalog ?? BUILT_IN_CATALOG;
  const data = catalog.kinds.map((kind) => ({
    name: kind.name,
    ...(kind.description ? { description: kind.description } : {}),
    source: kind.origin,
    built_in: kind.builtIn,
    fields: kind.fields.map((field) => ({
      name: field.name,
      type: field.type,
      optional: field.optional === true,
      ...(field.personal ? { personal: true } : {}),
    })),
  }));
  return [
    defineRoute({
      operationId: 'listEventTypes',
      method: 'GET',
      path: '/v1/event-types',
      summary:
        'The event kinds: built in and from the operator catalogue, each with its fields in body order',
      tag: 'events',
      scope: 'none',
      responses: { 200: { description: 'Every kind', schema: listOf(eventType) } },
    })(async () => ({ status: 200, body: { data } })),
  ];
}
