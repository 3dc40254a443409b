import { z } from 'zod';
import { DECIMAL_JSON_SCHEMA, DECIMAL_MARK, ERROR_CATALOGUE, type ErrorCode } from '@hookline/core';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key';
import { pathParams, type FieldDoc, type Route } from './route';
import { errorBody } from './schemas';

type JsonSchema = Record<string, unknown>;

// The OpenAPI 3.1 document, generated from the route table: the same zod schemas that validate requests and
// shape answers are converted with z.toJSONSchema (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
// Schemas with a meta id become shared components.

const SECURITY = 'operatorKey';

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      // A decimal field accepts a JSON number or a string, which zod (seeing the string it becomes) cannot say.
      override: ({ jsonSchema }) => {
        const node = jsonSchema as JsonSchema;
        if (!node[DECIMAL_MARK]) return;
        for (const key of Object.keys(node)) delete node[key];
        Object.assign(node, structuredClone(DECIMAL_JSON_SCHEMA));
      },
    }) as JsonSchema;
    const { $schema: _draft, $defs, ...rest } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>))
      this.components[id] = relink(def);
    return relink(rest);
  }
}

const relink = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;

/** Applies a route's field docs at dotted paths of the body schema (`data.rate`). */
function applyFieldDocs(schema: JsonSchema, docs: Readonly<Record<string, FieldDoc>>): JsonSchema {
  for (const [path, doc] of Object.entries(docs)) {
    const names = path.split('.');
    let parent = schema;
    for (const name of names.slice(0, -1)) parent = propertiesOf(parent)[name] as JsonSchema;
    const last = names[names.length - 1]!;
    const properties = propertiesOf(parent);
    properties[last] = doc.mode === 'replace' ? { ...doc.schema } : { ...properties[last], ...doc.schema };
    const required = (parent.required ?? []) as string[];
    if (doc.required && !required.includes(last)) parent.required = [...required, last];
  }
  return schema;
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) throw new Error('field docs name a path that the schema does not have');
  return properties;
}

/** The errors a route can answer with, from what it does: auth, scope, input, Redis. */
function errorsOf(route: Route): ErrorCode[] {
  const codes: ErrorCode[] = [];
  // Every request that may carry a body has it read, JSON or nothing, whether the route takes one or not: a
  // body sent to a route that takes none is refused as an unknown field. Every route reads its query the same
  // way: a parameter it does not take is refused (route-runner.ts).
  const readsBody = route.method !== 'GET';
  codes.push('VALIDATION_FAILED');
  if (readsBody) codes.push('INVALID_JSON');
  if (route.auth) codes.push('UNAUTHORIZED');
  if (route.scope !== 'none') codes.push('NOT_FOUND');
  if (readsBody) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (route.idempotent) codes.push('IDEMPOTENCY_CONFLICT');
  codes.push(...route.otherErrors);
  if (route.auth || route.scope !== 'none') codes.push('REDIS_UNAVAILABLE');
  codes.push('INTERNAL');
  return [...new Set(codes)];
}

function operation(route: Route, schemas: SchemaCollector, errorRef: JsonSchema): JsonSchema {
  const parameters: JsonSchema[] = pathParams(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const query = schemas.convert(route.query, 'input');
    const required = (query.required ?? []) as string[];
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>))
      parameters.push({ name, in: 'query', required: required.includes(name), schema });
  }
  for (const header of [...(route.idempotent ? [IDEMPOTENCY_KEY_HEADER] : []), ...route.headers])
    parameters.push({
      name: header.name,
      in: 'header',
      required: false,
      description: header.description,
      schema: { type: 'string', ...header.schema },
    });
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.responses))
    responses[status] = {
      description: spec.description,
      ...(spec.schema
        ? {
            content: {
              [spec.contentType ?? 'application/json']: { schema: schemas.convert(spec.schema, 'output') },
            },
          }
        : {}),
    };
  const codesByStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(route))
    codesByStatus.set(ERROR_CATALOGUE[code], [...(codesByStatus.get(ERROR_CATALOGUE[code]) ?? []), code]);
  for (const [status, codes] of codesByStatus)
    responses[status] = {
      description: `Error: ${codes.join(' or ')}`,
      content: { 'application/json': { schema: errorRef } },
    };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: route.auth ? [{ [SECURITY]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: {
              'application/json': {
                schema: applyFieldDocs(schemas.convert(route.body, 'input'), route.bodyDocs),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(routes: readonly Route[], version: string): JsonSchema {
  const schemas = new SchemaCollector();
  const errorRef = schemas.convert(errorBody, 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes)
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, schemas, errorRef);
  return {
    openapi: '3.1.0',
    info: {
      title: 'hookline API',
      version,
      description:
        'Webhook delivery for phone-system events. Errors always have the shape ' +
        '{"error":{"code","message","details?"}}; 400 answers name each bad field in details. Every route ' +
        'refuses a query parameter it does not take (400 VALIDATION_FAILED naming it), also routes that take none. ' +
        'A method a path below does not list answers 405 METHOD_NOT_ALLOWED with an Allow header naming those it ' +
        'lists (HEAD wherever GET is), before any body is read; under /v1 after the key is checked, as a 404 is.',
    },
    security: [{ [SECURITY]: [] }],
    paths,
    components: {
      securitySchemes: {
        [SECURITY]: {
          type: 'http',
          scheme: 'bearer',
          description: 'The operator key, HOOKLINE_API_KEY',
        },
      },
      schemas: schemas.components,
    },
  };
}
