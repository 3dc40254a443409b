import { z } from 'zod';
import {
  ERROR_CATALOGUE,
  hookFormat,
  OUTCOMES,
  shownAuth,
  TRIGGERS,
  type ErrorCode,
  type MaskedAuth,
} from '@hookline/core';
import { wholeNumberQuery } from './query-fields';

// Answer shapes shared by several routes. They strip undeclared keys when the runner shapes an answer, so
// these lists are also the allow-list of what may ever leave the API.

// A hook's credentials as the store keeps them for pages (MaskedAuth) go through shownAuth first: the Basic
// username is cut to its last 4 characters like a secret.
const maskedAuth = z.preprocess(
  (auth) => shownAuth(auth as MaskedAuth),
  z.discriminatedUnion('scheme', [
    z.object({ scheme: z.literal('none') }),
    z.object({
      scheme: z.literal('bearer'),
      token_last4: z.string().describe('Last 4 characters of the token (empty for short tokens)'),
    }),
    z.object({
      scheme: z.literal('basic'),
      username_last4: z
        .string()
        .describe('Last 4 characters of the username (empty for usernames of 8 characters or fewer)'),
      password_last4: z.string().describe('Last 4 characters of the password (empty for short passwords)'),
    }),
    z.object({
      scheme: z.literal('oauth2'),
      token_url: z.string(),
      client_id: z.string(),
      client_secret_last4: z
        .string()
        .describe('Last 4 characters of the client secret (empty for short ones)'),
      scope: z.string().optional(),
      audience: z.string().optional(),
      client_auth: z.enum(['basic', 'post']),
    }),
  ]),
);

/** A stored filter as answers show it (validated when it was set). */
const hookFilterView = z
  .record(z.string(), z.unknown())
  .describe(
    'Only events whose fields match get to the hook: {field: text | {"$in": [...]} | {"$prefix": text} | ' +
      '{"$exists": bool}}, every condition must hold; absent: every event of its kinds',
  );

export const hookView = z
  .object({
    id: z.string(),
    account_id: z.string(),
    url: z.string(),
    format: hookFormat,
    auth: maskedAuth,
    description: z.string().optional(),
    state: z.enum(['active', 'suspended']),
    suspended_at: z.string().optional().describe('When the hook was suspended (ISO 8601, UTC)'),
    suspended_reason: z
      .string()
      .optional()
      .describe(
        'Why, as a sentence to show people, e.g. "10 consecutive failures over 12 minutes; the last: the endpoint ' +
          'answered 500". It carries no times or codes: those are suspended_at and the delivery log',
      ),
    held_count: z
      .number()
      .int()
      .optional()
      .describe(
        'How many events the hook holds: only in GET answers (one hook, or the list) while it is suspended, ' +
          'read then alone so that an active hook costs nothing more; GET …/hooks/{hook}/held lists them',
      ),
    created_at: z.string(),
    updated_at: z.string(),
    insecure_credentials: z
      .boolean()
      .describe(
        'True when credentials are sent to a plain http:// URL (the hook URL, or an OAuth 2.0 token_url): ' +
          'allowed, but readable on the way',
      ),
    health: z
      .enum(['healthy', 'failing'])
      .describe(
        'failing: its current run of failures reached half of HOOKLINE_SUSPEND_AFTER_FAILURES (it is suspended ' +
          'if the run goes on); back to healthy after a delivered attempt or a re-enable',
      ),
    events: z
      .union([z.literal('all'), z.array(z.string())])
      .describe(
        'The event kinds delivered to this hook: "all" (every kind, also kinds added later) or a list',
      ),
    filter: hookFilterView.optional(),
    signing: z.boolean().describe('Whether requests carry Standard Webhooks signatures (webhook-signature)'),
    signing_previous_expires_at: z
      .string()
      .optional()
      .describe('After a rotation: until when the previous secret still signs beside the new one (ISO 8601)'),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('Extra headers sent on every request, as sent; absent when the hook has none'),
    tls: z
      .object({
        subject: z.string().describe('The client certificate\'s subject, e.g. "CN=hookline, O=Acme"'),
        issuer: z.string(),
        expires_at: z.string().describe('When the certificate stops being valid (ISO 8601)'),
        expires_soon: z
          .boolean()
          .describe(
            'True from 14 days before expires_at on: replace the certificate (PATCH tls) before then',
          ),
        fingerprint_sha256: z.string(),
        private_ca: z
          .boolean()
          .describe("Whether the endpoint's certificate is checked against the hook's own ca"),
      })
      .optional()
      .describe('The client certificate presented to the endpoint (mutual TLS); its key is never shown'),
    egress_wait: z
      .object({
        since: z.string().describe('When the proxy first kept the event back (ISO 8601)'),
        reason: z
          .string()
          .describe(
            'The proxy\'s last answer, e.g. "the egress proxy 10.0.0.9:3128 cannot be reached: ECONNREFUSED"',
          ),
      })
      .optional()
      .describe(
        "Present while the hook's next event waits on the egress proxy (HOOKLINE_EGRESS_PROXY refused or could not " +
          'be reached): nothing was sent, nothing counts toward suspension, and the events go in order once it lets them',
      ),
  })
  .meta({ id: 'Hook' });

/** A hook with its new signing secret: only in the answer that made the secret, never again. */
export const hookWithSecret = hookView
  .extend({
    signing_secret: z
      .string()
      .optional()
      .describe(
        'The signing secret (whsec_…), present only in the answer that made it (signing: true, or a rotation): ' +
          'store it now, it is never shown again',
      ),
  })
  .meta({ id: 'HookWithSecret' });

export const deliveryRecord = z
  .object({
    attempt_id: z.string().describe('This attempt (an event can have several: a send-again, a probe)'),
    event_id: z.string(),
    event_type: z.string(),
    hook_id: z.string(),
    call_id: z.string().optional().describe("The event's call_id, or its first field for a kind without one"),
    trigger: z
      .enum(TRIGGERS as [string, ...string[]])
      .describe('auto (its turn in the queue), manual (send again), test (test button) or probe'),
    outcome: z.enum(OUTCOMES as [string, ...string[]]),
    status_code: z.number().int().optional(),
    duration_ms: z.number(),
    attempted_at: z.string(),
    error: z.string().optional(),
    response_excerpt: z.string().optional(),
    erased_at: z
      .string()
      .optional()
      .describe(
        'When an erasure of personal data emptied this record: only ids, times, outcome, status and duration remain',
      ),
  })
  .meta({ id: 'DeliveryRecord' });

export const activityEntry = z
  .object({
    kind: z
      .string()
      .describe('hook.created, hook.updated, hook.deleted, hook.suspended, hook.enabled, hook.stuck, …'),
    at: z.string(),
    hook_id: z.string().optional(),
    actor: z.string().describe('customer:<account>, operator, admin:<user> or monitor'),
    detail: z.string().optional(),
  })
  .meta({ id: 'ActivityEntry' });

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** A page of a list paged with a cursor (pageQuery): the same `next_cursor` on every such list. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    next_cursor: z.string().optional().describe('Present when there may be more: pass it as cursor'),
  });

// STOPPING is a worker's or monitor's /readyz alone (they have no API): the HTTP tier never answers it.
const API_ERROR_CODES = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => code !== 'STOPPING');

export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
    attempt: deliveryRecord
      .optional()
      .describe('PROBE_FAILED only: the probe attempt, as recorded in the hook’s history'),
  })
  .meta({ id: 'Error' });

export const limitQuery = z.strictObject({
  limit: wholeNumberQuery(1, 1000, 50).describe('How many entries, newest first'),
});
