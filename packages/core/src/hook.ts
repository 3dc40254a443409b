import { z } from 'zod';
import type { MaskedAuth } from './auth';
import type { HookFormat } from './encoders';
import { BUILT_IN_CATALOG, type DeliverableEvent, type EventCatalog } from './event-kinds';
import { hookFilterInput, type HookFilter } from './hook-filter';
import { hookHeadersInput, type HookHeaders } from './hook-headers';
import { hookTlsInput, type ClientCertificateView } from './hook-tls';
import { freeTextProblem } from './text';
import type { TraceContext } from './trace-context';

// Credentials are sent as given: no control characters (they would smuggle CR/LF into the Authorization
// header) and no lone surrogates (Basic's UTF-8 bytes would silently differ from what was typed).
const headerSafe = (field: string, options: { empty?: 'allowed' } = {}) =>
  z
    .string()
    .min(options.empty === 'allowed' ? 0 : 1, `${field} must not be empty`)
    .max(4096, `${field} must be at most 4096 characters`)
    .superRefine((v, ctx) => {
      const problem = freeTextProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
    });

// A bare '#' is a fragment too, empty: `hash` is '' then, yet the URL keeps the '#' as stored and shown. Only a
// fragment puts a '#' in `href` (elsewhere it is percent-encoded).
const hasFragment = (url: URL) => url.href.includes('#');

// The URL parser makes a host of what follows a missing one (`http:///x`, `http:/x` and `http:x` all become
// http://x/): such a hook would deliver to a host nobody typed.
const NAMES_HOST = /^https?:\/\/[^/\\?#]/i;

// Where an OAuth 2.0 hook gets its tokens: https (or http, with the same warning as credentials on http).
const tokenUrl = z
  .string()
  .max(2048, 'token_url must be at most 2048 characters')
  .superRefine((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
      ctx.addIssue({
        code: 'custom',
        message: 'token_url must be an absolute http:// or https:// URL without user-info',
      });
    // RFC 6749 §3.2: a token endpoint's URI has no fragment (it would never be sent).
    else if (!NAMES_HOST.test(value))
      ctx.addIssue({
        code: 'custom',
        message: 'token_url must name a host after the scheme: https://host/path',
      });
    else if (hasFragment(url))
      ctx.addIssue({ code: 'custom', message: 'token_url must not contain a #fragment' });
    else if (url.port === '0') ctx.addIssue({ code: 'custom', message: 'token_url must not use port 0' });
  })
  .transform((value) => new URL(value).href);

// RFC 6749 §3.3: scope tokens of visible ASCII but `"` and `\`, separated by single spaces; sent as given.
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

export const hookAuthInput = z.discriminatedUnion(
  'scheme',
  [
    z.strictObject({ scheme: z.literal('none') }),
    z.strictObject({
      scheme: z.literal('bearer'),
      // A bearer token goes into the header byte for byte: visible ASCII only (RFC 6750's token68 and more).
      token: headerSafe('token').refine(
        (v) => /^[\x21-\x7e]*$/.test(v),
        'token must be visible ASCII characters (no spaces, no accented or other non-ASCII characters)',
      ),
    }),
    z.strictObject({
      scheme: z.literal('basic'),
      username: headerSafe('username').refine(
        (v) => !v.includes(':'),
        'username must not contain ":" (RFC 7617)',
      ),
      // RFC 7617 allows an empty password, and receivers rely on it (an API key as the user name, then ':').
      password: headerSafe('password', { empty: 'allowed' }),
    }),
    z.strictObject({
      scheme: z.literal('oauth2'),
      token_url: tokenUrl,
      client_id: headerSafe('client_id'),
      client_secret: headerSafe('client_secret'),
      scope: headerSafe('scope')
        .refine(
          // Empty or with control characters: headerSafe says so already.
          (v) => v === '' || /[\x00-\x1f\x7f]/.test(v) || SCOPE.test(v),
          'scope must be space-separated scope tokens: visible ASCII characters other than " and \\, one space between tokens',
        )
        .optional(),
      audience: headerSafe('audience').optional(),
      client_auth: z
        .enum(['basic', 'post'], { error: 'client_auth must be "basic" or "post"' })
        .optional()
        .describe('client_secret_basic (the default) or client_secret_post (RFC 6749 §2.3.1)'),
    }),
  ],
  {
    // Not an object at all (null, in a change, would read as removing the credentials): say what it must be.
    error: (issue) =>
      issue.input === null || typeof issue.input !== 'object' || Array.isArray(issue.input)
        ? 'auth must be an object with a scheme: none (no credentials), bearer, basic or oauth2'
        : 'scheme must be one of none, bearer, basic, oauth2',
  },
);

// Kept in its parsed form, so the URL shown is the URL called. The parser silently drops tabs and line breaks
// and trims spaces: such input is refused rather than quietly changed. A missing url "is required" and one of
// another type says so (zod-problems.ts); `whenNull` words a null, which in a change would mean removing it.
const hookUrlInput = (whenNull?: string) =>
  z
    .string({ error: (issue) => (issue.input === null ? whenNull : undefined) })
    .max(2048, 'url must be at most 2048 characters')
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'url must be an absolute http:// or https:// URL' });
        return;
      }
      if (/[\s\u0000-\u001f\u007f]/.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: 'url must not contain spaces, tabs, line breaks or control characters',
        });
        return;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        ctx.addIssue({ code: 'custom', message: 'url must use http or https' });
      else if (!NAMES_HOST.test(value))
        ctx.addIssue({ code: 'custom', message: 'url must name a host after the scheme: https://host/path' });
      if (url.username || url.password)
        ctx.addIssue({ code: 'custom', message: 'url must not contain user-info; use auth instead' });
      if (hasFragment(url)) ctx.addIssue({ code: 'custom', message: 'url must not contain a #fragment' });
      // The URL parser takes port 0, but nothing can be connected to on it: every delivery would fail.
      if (url.port === '0') ctx.addIssue({ code: 'custom', message: 'url must not use port 0' });
    })
    .transform((value) => new URL(value).href);

export const hookFormat = z.enum(['json', 'form'], { error: 'format must be "json" or "form"' });
const description = z
  .string()
  .max(500, 'description must be at most 500 characters')
  .superRefine((v, ctx) => {
    const problem = freeTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `description ${problem}` });
  });

/** Every kind producers publish, now and later: how a hook's subscription is stored and shown by default. */
export const ALL_EVENTS = 'all';
/** A hook's subscription: every kind (`"all"`, also kinds added later), or the listed kinds only. */
export type HookEvents = typeof ALL_EVENTS | string[];

/**
 * `events` against the catalogue: "all" or a non-empty list of kinds hooks can subscribe to (duplicates are
 * dropped, order kept). Operator notice kinds are not among them: they go to the operator's endpoint only.
 */
export function hookEventsInput(catalog: EventCatalog) {
  const names = catalog.producerKinds.map((kind) => kind.name);
  const known = new Set(names);
  return z
    .union(
      [z.literal(ALL_EVENTS), z.array(z.string()).min(1, 'events must list at least one kind, or be "all"')],
      {
        error: 'events must be "all" or a list of event kinds',
      },
    )
    .superRefine((events, ctx) => {
      if (!Array.isArray(events)) return;
      events.forEach((name, i) => {
        if (!known.has(name))
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `is not an event kind a hook can subscribe to; the kinds are ${names.join(', ')}`,
          });
      });
    })
    .transform((events): typeof ALL_EVENTS | string[] =>
      Array.isArray(events) ? [...new Set(events)] : ALL_EVENTS,
    )
    .describe(
      'The event kinds delivered to this hook: "all" (the default: every kind, also kinds added later) or a ' +
        'list of kinds (GET /v1/event-types)',
    );
}

const signing = z
  .boolean({ error: 'signing must be true or false' })
  .describe(
    'Sign every request (Standard Webhooks v1). true makes hookline generate a secret, returned once as ' +
      'signing_secret; false stops signing and forgets the secret',
  );

/**
 * The create and update bodies, with `events` checked against the process's catalogue and `headers` against
 * its event-type header (HOOKLINE_EVENT_TYPE_HEADER; the default when not given).
 */
export function hookInputSchemas(
  catalog: EventCatalog,
  options: { eventTypeHeader?: string; now?: () => Date } = {},
) {
  const events = hookEventsInput(catalog);
  const filter = hookFilterInput(catalog);
  const headers = hookHeadersInput(options.eventTypeHeader);
  const tls = hookTlsInput(options.now);
  const create = z.strictObject({
    url: hookUrlInput(),
    format: hookFormat,
    auth: hookAuthInput.default({ scheme: 'none' }),
    description: description.optional(),
    events: events.optional(),
    filter: filter.optional(),
    signing: signing.optional(),
    headers: headers.optional(),
    tls: tls.optional(),
  });
  const update = z
    .strictObject({
      url: hookUrlInput('url cannot be removed; give the new URL instead').optional(),
      format: hookFormat.optional(),
      auth: hookAuthInput.optional(),
      description: description.nullable().optional(),
      events: events.optional(),
      // null (or {}) removes the filter.
      filter: filter.nullable().optional(),
      signing: signing.optional(),
      headers: headers.nullable().optional(),
      tls: tls.nullable().optional(),
    })
    .refine(
      (v) => Object.keys(v).length > 0,
      'give at least one of url, format, auth, description, events, filter, signing, headers, tls',
    );
  return { create, update };
}

const BUILT_IN_SCHEMAS = hookInputSchemas(BUILT_IN_CATALOG);
export const createHookInput = BUILT_IN_SCHEMAS.create;
// The input shape (auth may be omitted: it defaults to none); the store parses it again with the schema.
export type CreateHookInput = z.input<typeof createHookInput>;

export const updateHookInput = BUILT_IN_SCHEMAS.update;
export type UpdateHookInput = z.infer<typeof updateHookInput>;

export type HookState = 'active' | 'suspended';

/** What happens to a suspended hook's held events when it is re-enabled. */
/**
 * What a re-enable does with the events held while the hook was suspended: deliver them all in order, discard
 * them all, or discard those accepted before a time and deliver the rest in order.
 */
export type HeldChoice = 'deliver' | 'discard' | { readonly since: Date };

/**
 * A re-enable's answer: the hook as it is now, and whether this call re-enabled it (else it found it active,
 * or another re-enable came first). When it did, how many held events the choice covered, so the answer can
 * say so: those recorded `discarded` and those queued for delivery.
 */
export type EnableResult =
  | { readonly hook: HookView; readonly changed: false }
  | {
      readonly hook: HookView;
      readonly changed: true;
      /** Held events recorded `discarded` (all of them with `discard`, those accepted before `since`). */
      readonly discarded: number;
      /** Held events queued for delivery, in order (none with `discard`). */
      readonly queued: number;
    };

/**
 * Re-enabling a suspended hook, as the front doors call it (@hookline/suspension's HookControl): the held
 * events' fate, who acts, and whether to test the endpoint first (`probe`).
 */
export interface HookEnabler {
  enable(
    accountId: string,
    hookId: string,
    held: HeldChoice,
    actor: string,
    options?: { readonly probe?: boolean },
  ): Promise<EnableResult | undefined>;
}

/**
 * A client's Idempotency-Key on a request that queues an event for one hook (the API's test and send-again), as
 * the producer keeps it: written by the same step that queues the event, so the key exists exactly when the
 * event was queued. The same key within the idempotency window (24 h) answers the first request's answer and
 * queues nothing; the same key with another fingerprint is IDEMPOTENCY_CONFLICT.
 */
export interface RequestKey {
  /** The key among the account's: the operation it was given to and a hash of the client's key (hex). */
  readonly name: string;
  /** A hash (hex) of what the request asked for: its operation, path and body. */
  readonly fingerprint: string;
}

/** What a front door may add to a test or a send-again beside what it sends. */
export interface SendOptions {
  /** The request's Idempotency-Key, when it gave one. */
  readonly requestKey?: RequestKey;
}

/**
 * What the front doors ask of the producer for one hook (@hookline/queue's Producer): a test event, and
 * send-again of an event already accepted. `duplicate`: the request key was given before, and the answer is
 * that request's (nothing was queued).
 */
export interface HookSender {
  publishTest(
    accountId: string,
    hookId: string,
    options?: SendOptions,
  ): Promise<{ id: string; duplicate: boolean }>;
  /**
   * Send again: the same event to one hook, at the tail of its queue, recorded `manual` under `attemptId` (or,
   * for a duplicate, under the attempt id the first request was given, which it answers).
   */
  resend(
    accountId: string,
    hookId: string,
    event: DeliverableEvent,
    attemptId: string,
    trigger?: 'manual',
    from?: TraceContext,
    options?: SendOptions,
  ): Promise<{ attemptId: string; duplicate: boolean }>;
}

/** A hook as the API and the website show it: credentials masked, state read from the queue's paused flag. */
export interface HookView {
  readonly id: string;
  readonly account_id: string;
  readonly url: string;
  readonly format: HookFormat;
  readonly auth: MaskedAuth;
  readonly description?: string;
  readonly state: HookState;
  readonly suspended_at?: string;
  readonly suspended_reason?: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** True when credentials go to a plain http:// URL: allowed, but shown as a warning. */
  readonly insecure_credentials: boolean;
  /**
   * `failing` once the hook's current run of failures has reached half the suspension threshold (it stays so
   * until a delivery succeeds or the hook is re-enabled); `healthy` otherwise.
   */
  readonly health: HookHealthState;
  readonly events: HookEvents;
  /** Only events whose fields match get to the hook (hook-filter.ts); absent: every event of its kinds. */
  readonly filter?: HookFilter;
  /** Whether requests carry Standard Webhooks signatures; the secret itself is never shown again. */
  readonly signing: boolean;
  /** While a rotated-out secret still signs beside the new one: until when (ISO 8601). */
  readonly signing_previous_expires_at?: string;
  /**
   * While the hook's next event waits on the egress proxy (it refused the tunnel or could not be reached):
   * since when (ISO 8601), the proxy's last answer, and whether it refused or could not be reached (for the
   * website's words; the API answer shows since and reason). Nothing was sent; the event goes once the proxy
   * lets it.
   */
  readonly egress_wait?: {
    readonly since: string;
    readonly reason: string;
    readonly cause?: 'refused' | 'unreachable';
  };
  /** Extra headers sent on every request, as sent; absent when the hook has none. */
  readonly headers?: HookHeaders;
  /** The client certificate presented to the endpoint (mutual TLS), without its key; absent when none. */
  readonly tls?: ClientCertificateView;
}

/** A hook as the answer that made its signing secret shows it: the only time the secret is ever shown. */
export interface HookWithSecret extends HookView {
  readonly signing_secret?: string;
}

/** Whether a hook subscribed to `events` gets events of kind `type`. */
export function wantsEvent(events: HookEvents, type: string): boolean {
  return events === ALL_EVENTS || events.includes(type);
}

export type HookHealthState = 'healthy' | 'failing';

/**
 * The start of the reason of every suspension an administrator made (Bull Board's pause): only an administrator
 * lifts it, so no page or e-mail offers the customer to re-enable such a hook.
 */
export const ADMIN_PAUSE = 'paused by admin';

/** Whether a suspension's reason is an administrator's pause. */
export function isAdminPause(reason: string | undefined): boolean {
  return reason !== undefined && (reason === ADMIN_PAUSE || reason.startsWith(`${ADMIN_PAUSE}:`));
}
