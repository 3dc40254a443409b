import { z } from 'zod';
import { openApiDocument } from '../openapi';
import { defineRoute, type Route } from '../route';

const API_VERSION = '1.0.0';

/** GET /openapi.json: the document of `routes` and of itself, built once. */
export function openApiRoute(routes: readonly Route[]): Route {
  let document: Record<string, unknown> | undefined;
  const self: Route = defineRoute({
    operationId: 'openApi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    tag: 'operations',
    auth: false,
    scope: 'none',
    responses: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  })(async () => {
    document ??= openApiDocument([...routes, self], API_VERSION);
    return { status: 200, body: document };
  });
  return self;
}
