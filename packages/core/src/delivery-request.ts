import type { HookAuth, MaskedAuth } from './auth';
import { authorizationHeader } from './auth';
import type { HookFormat } from './encoders';
import { encodeEvent } from './encoders';
import type { DeliverableEvent } from './event-kinds';
import type { HookHeaders } from './hook-headers';
import type { HookTls } from './hook-tls';
import { SIGNATURE_HEADERS, signatureHeaders, type SigningKeys } from './signing';
import type { TraceContext } from './trace-context';

/** Exactly what one attempt sends: POST to `url` with these headers and this body. */
export interface DeliveryRequest {
  readonly url: string;
  /** Names as sent. Host and Content-Length are left to the HTTP client, which derives them from url and body. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The hook's client certificate (mutual TLS), for the connection: never recorded nor shown. */
  readonly tls?: HookTls;
  /**
   * How much of the response body to keep, in bytes: the 4 KiB excerpt when absent (a delivery's, for the
   * history). An OAuth 2.0 token request keeps more, since its answer is read whole and a JWT can be large.
   */
  readonly keepResponseBytes?: number;
}

export interface DeliveryRequestOptions {
  /** The header that carries the event type; a setting, `X-Service-Event-Type` by default. */
  readonly eventTypeHeader: string;
  readonly userAgent: string;
  /**
   * When the request leaves (the worker's clock): `webhook-timestamp` and the signatures of a signing hook
   * depend on it, and which secrets sign during a rotation. Required for a signing target.
   */
  readonly sentAt?: Date;
  /**
   * The attempt's trace context, sent as `traceparent` / `tracestate` (HOOKLINE_TRACE_PROPAGATE=true only:
   * otherwise absent, and the headers are exactly §3's).
   */
  readonly traceContext?: TraceContext;
  /** An OAuth 2.0 hook's access token for this attempt, sent as `Authorization: Bearer`. */
  readonly oauthToken?: string;
}

export interface DeliveryTarget<A> {
  readonly url: string;
  readonly format: HookFormat;
  readonly auth: A;
  /** The hook's extra headers, sent after hookline's own (their names never clash: see hook-headers.ts). */
  readonly headers?: HookHeaders;
}

/** A hook's target as the worker has it: with its signing secrets when it signs (Standard Webhooks). */
export interface SendTarget extends DeliveryTarget<HookAuth> {
  readonly signing?: SigningKeys;
  readonly tls?: HookTls;
}

/** A hook's target as a page has it: credentials masked, and whether it signs. */
export interface PreviewTarget extends DeliveryTarget<MaskedAuth> {
  readonly signing?: boolean;
}

/** The User-Agent of every delivery, probe and request preview when no brand is set. */
export const USER_AGENT = 'hookline/0.1';

/**
 * The User-Agent that deliveries, probes and the website's preview send, from HOOKLINE_BRAND_NAME: customers
 * read it in the preview and in their endpoints' logs, so with a brand it names the brand, never hookline
 * (product.md §16). The name becomes an RFC 9110 product token: letters and digits (accents dropped), every
 * other run of characters one `-` (`Voxtel Connect` → `Voxtel-Connect-Webhooks/1.0`). A name with no such
 * letters gives `Webhooks/1.0`.
 */
export function deliveryUserAgent(brandName: string | undefined): string {
  if (brandName === undefined) return USER_AGENT;
  const token = brandName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${token ? `${token}-` : ''}Webhooks/1.0`;
}

const MASK = '••••';

// The real request and the website's preview share one builder so the preview can never drift from what is
// sent; only the Authorization value and the signatures differ. A hook that does not sign and has no extra
// headers gets exactly §3's headers, none more.
function build(
  target: DeliveryTarget<unknown>,
  authorization: string | undefined,
  signatures: ((body: string) => Record<string, string>) | undefined,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  const { contentType, body } = encodeEvent(event, target.format);
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    [options.eventTypeHeader]: event.type,
    ...sentExtraHeaders(target.headers, options.eventTypeHeader),
  };
  if (authorization !== undefined) headers['Authorization'] = authorization;
  if (signatures) Object.assign(headers, signatures(body));
  headers['User-Agent'] = options.userAgent;
  if (options.traceContext) {
    headers['traceparent'] = options.traceContext.traceparent;
    if (options.traceContext.tracestate) headers['tracestate'] = options.traceContext.tracestate;
  }
  return { url: target.url, headers, body };
}

/** Exactly what one attempt sends, signature headers included: the delivery history records this. */
export function buildDeliveryRequest(
  target: SendTarget,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  const { signing } = target;
  const { sentAt } = options;
  if (signing && !sentAt) throw new Error('a signing hook needs the send time (options.sentAt)');
  const signatures =
    signing && sentAt && ((body: string) => signatureHeaders(signing, event.id, sentAt, body));
  const authorization = authorizationHeader(target.auth, options.oauthToken);
  const request = build(target, authorization, signatures || undefined, event, options);
  return target.tls ? { ...request, tls: target.tls } : request;
}

/** The Authorization value as a page may show it: scheme, and for a bearer token its last 4 characters at most. */
export function maskedAuthorizationHeader(auth: MaskedAuth): string | undefined {
  switch (auth.scheme) {
    case 'oauth2':
      // A token lives minutes and is fetched per hook: shown as the scheme only.
      return `Bearer ${MASK}`;
    case 'none':
      return undefined;
    case 'bearer':
      return `Bearer ${MASK}${auth.token_last4}`;
    case 'basic':
      // The base64 of "user:pass" would leak the password's tail in a recognisable form; show the scheme only.
      return `Basic ${MASK}`;
  }
}

/** What the preview shows for `traceparent` with propagation on: each attempt sends its own span's. */
export const PREVIEW_TRACE_CONTEXT: TraceContext = { traceparent: '00-<trace id>-<span id>-01' };

/**
 * What `buildDeliveryRequest` would send, with the credentials masked, for the website's preview. A signing
 * hook's signature is shown masked: the secret is never read to draw a page.
 */
export function previewDeliveryRequest(
  target: PreviewTarget,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  const sentAt = options.sentAt ?? new Date(0);
  const signatures = target.signing
    ? () => ({
        [SIGNATURE_HEADERS.id]: event.id,
        [SIGNATURE_HEADERS.timestamp]: String(Math.floor(sentAt.getTime() / 1000)),
        [SIGNATURE_HEADERS.signature]: `v1,${MASK}`,
      })
    : undefined;
  return build(target, maskedAuthorizationHeader(target.auth), signatures, event, options);
}

/**
 * A hook's extra headers as sent: less one named as the event-type header. A hook may not set that name, but one
 * stored before the operator renamed the header (HOOKLINE_EVENT_TYPE_HEADER) would otherwise replace the event's
 * kind. Answers and pages show the same, so that they show what is sent. Undefined when none is left.
 */
export function sentExtraHeaders(
  headers: HookHeaders | undefined,
  eventTypeHeader: string,
): HookHeaders | undefined {
  if (!headers) return undefined;
  const clash = eventTypeHeader.toLowerCase();
  if (!Object.keys(headers).some((name) => name.toLowerCase() === clash)) return headers;
  const sent = Object.entries(headers).filter(([name]) => name.toLowerCase() !== clash);
  return sent.length > 0 ? Object.fromEntries(sent) : undefined;
}
