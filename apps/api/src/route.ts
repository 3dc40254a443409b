import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode, HookView, RequestKey } from '@hookline/core';
import type { AccountView } from '@hookline/store';

// A route is plain data: method, path, the zod schemas that validate its input and shape its answers, and a
// handler. The server registers routes from this table and /openapi.json is generated from the same table,
// so the document and the behaviour cannot drift apart.

/** What a route needs resolved from its path before it runs; anything outside the account is a 404. */
export type Scope = 'none' | 'account' | 'hook';

export interface ResponseSpec {
  readonly description: string;
  /** Shapes the answer (unknown keys are stripped) and documents it. Absent: no body (e.g. 204). */
  readonly schema?: z.ZodType;
  /** Default application/json. */
  readonly contentType?: string;
}

export type Responses = Readonly<Record<number, ResponseSpec>>;

/** A request header a route reads, for the document (the route reads it itself: headers are never refused). */
export interface HeaderDoc {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of its value (default: a string). */
  readonly schema?: Readonly<Record<string, unknown>>;
}

/** Extra JSON Schema for one body field, for what zod cannot express (e.g. a number given as text). */
export interface FieldDoc {
  readonly schema: Readonly<Record<string, unknown>>;
  /** `merge` (default) adds to what zod generated; `replace` stands in for it. */
  readonly mode?: 'merge' | 'replace';
  /** Listed as required even where zod's input view sees an optional value (a preprocess step). */
  readonly required?: boolean;
}

interface Resolved {
  none: Record<never, never>;
  account: { readonly account: AccountView };
  hook: { readonly account: AccountView; readonly hook: HookView };
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type BodyOf<R> = R extends { schema: z.ZodType } ? z.input<R['schema']> : undefined;

export type Reply<RS extends Responses> = {
  [K in keyof RS & number]: { readonly status: K; readonly body: BodyOf<RS[K]> };
}[keyof RS & number];

export type RouteContext<S extends Scope, Q, B> = Resolved[S] & {
  readonly query: Q;
  readonly body: B;
  readonly request: FastifyRequest;
  /** An idempotent route's Idempotency-Key, checked (idempotency-key.ts); undefined when none was given. */
  readonly requestKey: RequestKey | undefined;
};

export interface RouteDefinition<
  S extends Scope,
  QS extends z.ZodType | undefined,
  BS extends z.ZodType | undefined,
  RS extends Responses,
> {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI style: `/v1/accounts/{acct}/hooks/{hook}`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Operator key required (default true). */
  readonly auth?: boolean;
  readonly scope: S;
  readonly query?: QS;
  readonly body?: BS;
  /** Dotted body paths whose JSON numbers reach the schema with their source text (e.g. `data.rate`). */
  readonly keepNumberText?: readonly string[];
  /**
   * A quicker check of the body, for a hot route: the value `body` would give for a body it accepts, else
   * undefined and `body` decides (and words the errors). It sees the body as parsed, every number still an
   * object with its source text. It must agree with `body` exactly; test it against the schema.
   */
  readonly acceptBody?: (parsed: unknown) => Parsed<BS> | undefined;
  readonly bodyDocs?: Readonly<Record<string, FieldDoc>>;
  readonly headers?: readonly HeaderDoc[];
  /**
   * The route honours `Idempotency-Key` (idempotency-key.ts): the runner checks the header and hands the handler
   * a `requestKey`, which the handler passes to the step that queues its event. The document lists the header
   * and its 409.
   */
  readonly idempotent?: boolean;
  /**
   * What the 503 tells the caller to do when Redis did not answer in time, so the request may still take effect
   * (late-redis.ts); by default a read is retried and a change checked before it is retried.
   */
  readonly retryAfterLateRedis?: string;
  /** Errors this route can give beyond those implied by its auth, scope and input (for the document). */
  readonly otherErrors?: readonly ErrorCode[];
  readonly responses: RS;
}

interface ErasedContext {
  readonly account?: AccountView;
  readonly hook?: HookView;
  readonly query: unknown;
  readonly body: unknown;
  readonly request: FastifyRequest;
  readonly requestKey: RequestKey | undefined;
}

/** A route with its types erased, as the table holds it. */
export interface Route {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: boolean;
  readonly scope: Scope;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /**
   * The body schema takes `{}`: every field is optional, so a request without a body is read as `{}` (its
   * defaults) rather than refused; the document marks such a body as optional.
   */
  readonly bodyOptional: boolean;
  readonly keepNumberText: readonly string[];
  readonly acceptBody?: (parsed: unknown) => unknown;
  readonly bodyDocs: Readonly<Record<string, FieldDoc>>;
  readonly headers: readonly HeaderDoc[];
  readonly idempotent: boolean;
  readonly retryAfterLateRedis?: string;
  readonly otherErrors: readonly ErrorCode[];
  readonly responses: Responses;
  handle(ctx: ErasedContext): Promise<{
    readonly status: number;
    readonly body: unknown;
  }>;
}

/**
 * Declares a route in two steps, `defineRoute(spec)(handler)`: the spec's schemas fix the types first, so the
 * handler is checked against them (its status must be a declared one, its body that status's shape).
 */
export function defineRoute<
  S extends Scope,
  const RS extends Responses,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
>(definition: RouteDefinition<S, QS, BS, RS>) {
  return (handle: (ctx: RouteContext<S, Parsed<QS>, Parsed<BS>>) => Promise<Reply<RS>>): Route => ({
    ...definition,
    auth: definition.auth ?? true,
    bodyOptional: definition.body?.safeParse({}).success ?? false,
    keepNumberText: definition.keepNumberText ?? [],
    bodyDocs: definition.bodyDocs ?? {},
    headers: definition.headers ?? [],
    idempotent: definition.idempotent ?? false,
    otherErrors: definition.otherErrors ?? [],
    // The runner resolves the scope and parses query and body with the route's own schemas before calling,
    // so the context it passes has exactly the types the definition was checked against.
    handle: handle as Route['handle'],
  });
}

/** `{acct}` → `:acct`, for fastify's router. */
export const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** Names of the path parameters, in order. */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
