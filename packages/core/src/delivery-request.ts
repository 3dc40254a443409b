import type { HookAuth, MaskedAuth } from './auth';
import { authorizationHeader } from './auth';
import type { HookFormat } from './encoders';
import { encodeEvent } from './encoders';
import type { DeliverableEvent } from './event-kinds';

/** Exactly what one attempt sends: POST to `url` with these headers and this body. */
export interface DeliveryRequest {
  readonly url: string;
  /** Names as sent. Host and Content-Length are left to the HTTP client, which derives them from url and body. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface DeliveryRequestOptions {
  /** The header that carries the event type; a setting, `X-Service-Event-Type` by default. */
  readonly eventTypeHeader: string;
  readonly userAgent: string;
}

export interface DeliveryTarget<A> {
  readonly url: string;
  readonly format: HookFormat;
  readonly auth: A;
}

/** The User-Agent of every delivery, and of the website's request preview. */
export const USER_AGENT = 'hookline/0.1';

const MASK = '••••';

// The real request and the website's preview share one builder so the preview can never drift from what is
// sent; only the Authorization value differs.
function build(
  target: DeliveryTarget<unknown>,
  authorization: string | undefined,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  const { contentType, body } = encodeEvent(event, target.format);
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    [options.eventTypeHeader]: event.type,
  };
  if (authorization !== undefined) headers['Authorization'] = authorization;
  headers['User-Agent'] = options.userAgent;
  return { url: target.url, headers, body };
}

export function buildDeliveryRequest(
  target: DeliveryTarget<HookAuth>,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  return build(target, authorizationHeader(target.auth), event, options);
}

/** The Authorization value as a page may show it: scheme, and for a bearer token its last 4 characters at most. */
export function maskedAuthorizationHeader(auth: MaskedAuth): string | undefined {
  switch (auth.scheme) {
    case 'none':
      return undefined;
    case 'bearer':
      return `Bearer ${MASK}${auth.token_last4}`;
    case 'basic':
      // The base64 of "user:pass" would leak the password's tail in a recognisable form; show the scheme only.
      return `Basic ${MASK}`;
  }
}

/** What `buildDeliveryRequest` would send, with the credentials masked, for the website's preview. */
export function previewDeliveryRequest(
  target: DeliveryTarget<MaskedAuth>,
  event: DeliverableEvent,
  options: DeliveryRequestOptions,
): DeliveryRequest {
  return build(target, maskedAuthorizationHeader(target.auth), event, options);
}
