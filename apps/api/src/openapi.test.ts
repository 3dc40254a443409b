import { z } from 'zod';
import { createHookInput, isDropped, OUTCOMES, SAMPLE_CALL_DATA, updateHookInput } from '@hookline/core';
import { apiRoutes } from './app';
import { useApi } from './test-support/api-harness';

interface Operation {
  operationId: string;
  summary: string;
  security: unknown[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: {
    name: string;
    in: string;
    required: boolean;
    description?: string;
    schema: Record<string, unknown>;
  }[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Record<string, unknown>> };
}

const asInput = (schema: z.ZodType) => {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return json;
};

describe('GET /openapi.json', () => {
  const api = useApi();
  let doc: Document;
  beforeEach(async () => {
    const res = await api.call('GET', '/openapi.json', undefined, { key: null });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('is OpenAPI 3.1 with the bearer scheme and the error shape', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.values(doc.components.securitySchemes)).toEqual([
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    ]);
    expect(doc.components.schemas.Error).toMatchObject({
      properties: { error: { required: ['code', 'message'] } },
    });
    // A code only workers and monitors answer (their /readyz while stopping) is not the API's.
    const codes = (
      doc.components.schemas.Error?.properties as { error: { properties: { code: { enum: string[] } } } }
    ).error.properties.code.enum;
    expect(codes).toContain('REDIS_UNAVAILABLE');
    expect(codes).not.toContain('STOPPING');
  });

  it('lists every route of the table, and only those', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const served = apiRoutes(api.deps).map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(documented.sort()).toEqual(served.sort());
    for (const path of [
      '/v1/accounts',
      '/v1/accounts/{acct}/hooks',
      '/v1/accounts/{acct}/hooks/{hook}',
      '/v1/accounts/{acct}/hooks/{hook}/enable',
      '/v1/accounts/{acct}/hooks/{hook}/test',
      '/v1/accounts/{acct}/hooks/{hook}/deliveries',
      '/v1/accounts/{acct}/activity',
      '/v1/accounts/{acct}/events',
      '/healthz',
      '/readyz',
      '/metrics',
    ])
      expect(doc.paths).toHaveProperty([path]);
  });

  it('documents request bodies with the schemas that validate them', () => {
    const body = (path: string, method: string) =>
      doc.paths[path]![method]!.requestBody!.content['application/json']!.schema;
    expect(body('/v1/accounts/{acct}/hooks', 'post')).toEqual(asInput(createHookInput));
    expect(body('/v1/accounts/{acct}/hooks/{hook}', 'patch')).toEqual(asInput(updateHookInput));
    // One shape per kind of the catalogue (call_created alone here), told apart by its `type`.
    const [event, ...others] = (
      body('/v1/accounts/{acct}/events', 'post') as {
        oneOf: {
          required: string[];
          properties: {
            type: { const: string };
            data: { required: string[]; properties: Record<string, Record<string, unknown>> };
          };
        }[];
      }
    ).oneOf;
    expect(others).toEqual([]);
    expect(event!.properties.type.const).toBe('call_created');
    expect(event!.required).toEqual(['type', 'data']);
    expect(event!.properties.data.required).toEqual([
      'call_id',
      'direction',
      'from',
      'from_cnam',
      'to',
      'rate',
    ]);
    expect(event!.properties.data.properties.rate).toMatchObject({
      anyOf: [{ type: 'number' }, { type: 'string' }],
    });
    expect(event!.properties.data.properties.date).toMatchObject({
      type: 'string',
      pattern: expect.any(String),
    });
    expect(Object.keys(event!.properties.data.properties)).toEqual(Object.keys(SAMPLE_CALL_DATA));
  });

  it('marks a body optional exactly where every field is (no body then means the defaults)', () => {
    const required = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.requestBody)
      .map((op) => [op.operationId, op.requestBody!.required]);
    expect(Object.fromEntries(required)).toEqual({
      createAccount: true,
      createHook: true,
      updateHook: true,
      enableHook: true,
      publishEvent: true,
      requestErasure: true,
      createPortalLink: false,
    });
  });

  it('documents on every route the 400 that a query parameter it does not take gets', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    expect(operations.filter((op) => !op.responses['400']).map((op) => op.operationId)).toEqual([]);
  });

  it('documents Idempotency-Key and its 409 on the routes that honour it, and only there', () => {
    const honouring = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.parameters?.some((p) => p.name === 'Idempotency-Key'))
      .map((op) => op.operationId);
    expect(honouring.sort()).toEqual(['resendDelivery', 'testHook']);
    for (const path of [
      '/v1/accounts/{acct}/hooks/{hook}/test',
      '/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}/resend',
    ]) {
      const op = doc.paths[path]!.post!;
      expect(op.parameters!.find((p) => p.name === 'Idempotency-Key')).toEqual({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: expect.stringContaining('the same key (on this route of this account) within 24 hours'),
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
      expect(op.responses['409']).toMatchObject({
        description: expect.stringContaining('IDEMPOTENCY_CONFLICT'),
      });
    }
  });

  it('documents the hooks list as paged like the history: limit, cursor, next_cursor, oldest first', () => {
    const list = doc.paths['/v1/accounts/{acct}/hooks']!.get!;
    expect(list.summary).toMatch(
      /^The account's hooks, oldest first \(by creation, then id\), with cursor pagination/,
    );
    expect(list.parameters!.map((p) => [p.name, p.in, p.schema.description])).toEqual([
      ['acct', 'path', undefined],
      ['limit', 'query', 'How many hooks, oldest first (at most 200; 200 when not given)'],
      ['cursor', 'query', 'next_cursor of the previous page'],
    ]);
    const page = list.responses['200']!.content!['application/json']!.schema;
    expect(page).toMatchObject({
      properties: {
        data: { type: 'array', items: { $ref: '#/components/schemas/Hook' } },
        next_cursor: { type: 'string', description: 'Present when there may be more: pass it as cursor' },
      },
      required: ['data'],
    });
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
  });

  it("documents a hook's held events as paged in delivery order, and held_count on the hook", () => {
    const held = doc.paths['/v1/accounts/{acct}/hooks/{hook}/held']!.get!;
    expect(held.summary).toMatch(
      /^The events the hook holds while suspended, in delivery order, oldest first: the order a re-enable delivers them in/,
    );
    expect(held.parameters!.map((p) => [p.name, p.in, p.schema.description])).toEqual([
      ['acct', 'path', undefined],
      ['hook', 'path', undefined],
      ['limit', 'query', 'How many events, in delivery order, oldest first (at most 200; 50 when not given)'],
      ['cursor', 'query', 'next_cursor of the previous page'],
    ]);
    expect(held.responses['200']!.content!['application/json']!.schema).toMatchObject({
      properties: {
        data: { type: 'array', items: { $ref: '#/components/schemas/HeldEvent' } },
        next_cursor: { type: 'string' },
      },
    });
    expect(doc.components.schemas.HeldEvent).toMatchObject({
      required: ['event_id', 'type', 'accepted_at'],
      properties: { call_id: { type: 'string', description: expect.stringContaining('erasure') } },
    });
    expect(Object.keys(held.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(doc.components.schemas.Hook!.properties).toMatchObject({
      held_count: { type: 'integer', description: expect.stringContaining('while it is suspended') },
    });
  });

  it("documents a hook's credentials as the scheme and last 4 characters, a Basic username too", () => {
    const auth = JSON.stringify((doc.components.schemas.Hook!.properties as Record<string, unknown>).auth);
    expect(auth).toContain('"username_last4"');
    expect(auth).toContain('"password_last4"');
    expect(auth).not.toContain('"username"');
  });

  it('documents answers, errors and security per route', () => {
    const op = (path: string, method: string) => doc.paths[path]![method]!;
    const createHook = op('/v1/accounts/{acct}/hooks', 'post');
    expect(createHook.responses['201']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/HookWithSecret',
    });
    for (const status of ['400', '401', '404', '413', '415', '503', '500'])
      expect(createHook.responses[status]!.content!['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
    expect(createHook.security).toEqual([{ operatorKey: [] }]);
    expect(op('/healthz', 'get').security).toEqual([]);
    expect(Object.keys(op('/v1/accounts/{acct}/events', 'post').responses)).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '404', '409', '413', '415', '503']),
    );
    expect(op('/v1/accounts/{acct}/hooks/{hook}', 'delete').responses['204']).toEqual({
      description: expect.any(String),
    });
    expect(op('/v1/accounts/{acct}/hooks/{hook}/deliveries', 'get').parameters).toEqual([
      expect.objectContaining({ name: 'acct', in: 'path', required: true }),
      expect.objectContaining({ name: 'hook', in: 'path', required: true }),
      ...['limit', 'cursor', 'outcome', 'call_id', 'event_id', 'since', 'until'].map((name) =>
        expect.objectContaining({ name, in: 'query', required: false }),
      ),
    ]);
    expect(op('/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}', 'get').parameters).toEqual([
      expect.objectContaining({ name: 'acct', in: 'path', required: true }),
      expect.objectContaining({ name: 'hook', in: 'path', required: true }),
      expect.objectContaining({ name: 'attempt_id', in: 'path', required: true }),
    ]);
    // One attempt from the account's log, a deleted hook's included: the same answer as the hook's route.
    const accountAttempt = op('/v1/accounts/{acct}/deliveries/{attempt_id}', 'get');
    expect(accountAttempt.parameters).toEqual([
      expect.objectContaining({ name: 'acct', in: 'path', required: true }),
      expect.objectContaining({ name: 'attempt_id', in: 'path', required: true }),
    ]);
    expect(accountAttempt.summary).toContain('a deleted hook');
    expect(accountAttempt.responses['200']!.content!['application/json']!.schema).toEqual(
      op('/v1/accounts/{acct}/hooks/{hook}/deliveries/{attempt_id}', 'get').responses['200']!.content![
        'application/json'
      ]!.schema,
    );
    expect(Object.keys(accountAttempt.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    // Trace context rides in headers (product.md §19), optional: a bad one never refuses an event.
    expect(op('/v1/accounts/{acct}/events', 'post').parameters).toEqual([
      expect.objectContaining({ name: 'acct', in: 'path', required: true }),
      expect.objectContaining({ name: 'traceparent', in: 'header', required: false }),
      expect.objectContaining({ name: 'tracestate', in: 'header', required: false }),
    ]);
    expect(Object.keys(op('/v1/accounts/{acct}/hooks/{hook}/health', 'get').responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404']),
    );
    // Health: the attempts' outcomes add up to attempts; events dropped unsent are counted apart.
    const health = doc.components.schemas.HookHealth!.properties as Record<
      string,
      { required?: string[]; description?: string }
    >;
    // Every outcome in by_outcome (as it always was); the dropped ones again in dropped.
    expect(health.by_outcome!.required).toEqual(OUTCOMES);
    expect(health.dropped!.required).toEqual(OUTCOMES.filter(isDropped));
    expect(health.attempts!.description).toContain('the sum of those six in by_outcome');
    expect(doc.components.schemas.Hook).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.Hook)).not.toMatch(/"token"|"password"/);
    // A route that takes no body still reads one, as JSON: what it answers to a bad one is listed too.
    expect(Object.keys(op('/v1/accounts/{acct}/hooks/{hook}/test', 'post').responses)).toEqual(
      expect.arrayContaining(['202', '400', '401', '404', '413', '415', '503', '500']),
    );
    // A failed probe's 409 carries the attempt beside the error.
    expect(doc.components.schemas.Error!.properties).toMatchObject({
      attempt: { $ref: '#/components/schemas/DeliveryRecord' },
    });
  });
});
