import {
  describeFilter,
  previewDeliveryRequest,
  SAMPLE_CALL_CREATED,
  type DeliverableEvent,
  type HookView,
  type TraceContext,
} from '@hookline/core';
import { html, joinHtml, type SafeHtml } from '../view/html';

// The seed's own example, so the preview matches the documentation byte for byte.
export const SAMPLE_EVENT: DeliverableEvent = SAMPLE_CALL_CREATED;

export interface PreviewOptions {
  readonly eventTypeHeader: string;
  readonly userAgent: string;
  /** With HOOKLINE_TRACE_PROPAGATE=true: what stands for each attempt's own `traceparent`. */
  readonly traceContext?: TraceContext;
}

/** The request line, headers and body a `call_created` would arrive as, credentials and signature masked. */
// The sample's own date, so the illustrative webhook-timestamp agrees with the body.
const SAMPLE_SENT_AT = new Date('2016-03-01T08:31:55Z');

export function requestPreview(hook: HookView, options: PreviewOptions): SafeHtml {
  const request = previewDeliveryRequest(hook, SAMPLE_EVENT, { ...options, sentAt: SAMPLE_SENT_AT });
  const url = new URL(request.url);
  // As the deliverer sends them: host and connection first, content-length last, in the lower case undici
  // writes them in (the endpoint, and the attempt page, see exactly these names).
  const headers: [string, string][] = [
    ['host', url.host],
    ['connection', 'keep-alive'],
    ...Object.entries(request.headers),
    ['content-length', String(Buffer.byteLength(request.body))],
  ];
  const lines = [
    html`<span class="m">POST</span> ${url.pathname}${url.search} HTTP/1.1`,
    ...headers.map(([name, value]) => html`<span class="h">${name}:</span> ${value}`),
    html``,
    html`${request.body}`,
  ];
  // Built as lines and joined, so no formatter can change the whitespace inside the <pre>.
  return html`<pre class="request" data-request-preview>${joinHtml(lines, '\n')}</pre>`;
}

/** Which events the hook gets, in words: its kinds and its filter ("this hook gets: …"). */
export function hookGets(hook: HookView): SafeHtml {
  const kinds = hook.events === 'all' ? 'events of every kind' : `${hook.events.join(', ')} events`;
  const which = hook.filter ? `${kinds} where ${describeFilter(hook.filter)}` : `all ${kinds}`;
  return html`<p class="hook-gets" data-hook-gets><strong>This hook gets:</strong> ${which}.</p>`;
}
