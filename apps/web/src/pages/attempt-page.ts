import { resendRefusal, type AttemptRecord, type DeliveryRecord, type HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { duration, errorText, attemptBadge, plural, time } from '../view/format';
import { csrfField, layout, type Viewer } from '../view/layout';
import { changeControl } from '../view/read-only';

const TRIGGERS: Record<string, string> = {
  auto: 'its turn in the queue',
  manual: 'sent again by hand',
  test: 'the test button',
  probe: 'a test before re-enabling',
};

function requestBlock(record: AttemptRecord): SafeHtml {
  const request = record.request;
  if (record.outcome === 'erased')
    return html`<p class="muted" data-erased>
      Nothing was sent: the event was erased on request ${time(record.erased_at ?? record.attempted_at)},
      before its turn.
    </p>`;
  if (record.erased_at)
    return html`<p class="muted" data-erased>
      Erased on request ${time(record.erased_at)}: what was sent and received is no longer kept.
    </p>`;
  if (!request) return html`<p class="muted">Nothing was sent by this attempt.</p>`;
  const url = new URL(request.url);
  // A record keeps the headers as sent, framing (host, content-length) included; one made before it did lacks
  // host, which the URL gives.
  const hasHost = Object.keys(request.headers).some((name) => name.toLowerCase() === 'host');
  const head = [
    `${request.method} ${url.pathname}${url.search} HTTP/1.1`,
    ...(hasHost ? [] : [`Host: ${url.host}`]),
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\n');
  const certificate = request.client_certificate
    ? html`<p class="muted" data-client-certificate>
        Sent with the client certificate ${request.client_certificate} (mutual TLS).
      </p>`
    : '';
  return html`<pre class="request" data-request>
${head}

${request.body}</pre>
    ${certificate}`;
}

/**
 * What came back: the status code, the headers as received (bounded and cookie values masked when recorded,
 * see core's response-headers.ts), then the start of the body. Records made before headers were kept show
 * the body alone. The record keeps the status code only: a status line built from it (`HTTP/1.1 302 Found`)
 * named a reason phrase and a version the endpoint may not have sent (`HTTP/1.0`, `302 X`).
 */
function responseBlock(record: AttemptRecord): SafeHtml {
  if (record.outcome === 'erased') return html`<p class="muted">No response: nothing was sent.</p>`;
  if (record.erased_at) return html`<p class="muted">Erased on request: the response is no longer kept.</p>`;
  const headers = record.response_headers;
  const dropped = record.response_headers_dropped ?? 0;
  const head =
    record.status_code !== undefined && headers
      ? Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')
      : undefined;
  return html`${
    record.status_code !== undefined
      ? html`<p data-response-status>Status code ${record.status_code}.</p>`
      : ''
  }
  ${head ? html`<pre class="request" data-response-headers>${head}</pre>` : ''}
  ${
    dropped > 0
      ? html`<p class="muted" data-headers-dropped>
          ${plural(dropped, 'more header')} came after these and ${dropped === 1 ? 'was' : 'were'} not kept:
          an attempt keeps the first 30 headers, 4 KiB in all.
        </p>`
      : ''
  }
  ${
    record.response_excerpt
      ? html`<pre class="request" data-response>${record.response_excerpt}</pre>`
      : html`<p class="muted">No response body.</p>`
  }`;
}

/** The same event's other attempts: a send-again leads back to the attempt it repeats, and that one to it. */
function otherAttempts(hook: AttemptHook, others: readonly DeliveryRecord[]): SafeHtml {
  if (others.length === 0) return html``;
  return html`<section class="card" aria-labelledby="others-title" data-other-attempts>
    <div class="card-header"><h2 id="others-title">Other attempts of this event</h2></div>
    <div class="card-body">
      <ul class="plain-list">
        ${others.map(
          (r) =>
            html`<li>
              <a href="/hooks/${hook.id}/deliveries/${r.attempt_id}">${time(r.attempted_at)}</a>
              ${r.trigger === 'manual' ? ' (sent again)' : ''} ${attemptBadge(r)}
            </li>`,
        )}
      </ul>
    </div>
  </section>`;
}

/**
 * The hook an attempt was made for: the hook, or (deleted since) only its id. Its records stay in the account's
 * history, so its attempts keep their page, without a way to send again.
 */
export type AttemptHook = HookView | { readonly id: string; readonly deleted: true };

/** One attempt in full: what was sent (credentials masked), what came back, and a way to send it again. */
export function attemptPage(
  viewer: Viewer,
  hook: AttemptHook,
  record: AttemptRecord,
  others: readonly DeliveryRecord[] = [],
): SafeHtml {
  const title = 'deleted' in hook ? 'a deleted hook' : (hook.description ?? hook.url);
  const back =
    'deleted' in hook
      ? html`<a href="/search${record.call_id ? `?call_id=${encodeURIComponent(record.call_id)}` : ''}"
          >← Find a call</a
        >`
      : html`<a href="/hooks/${hook.id}">← ${title}</a>`;
  // The tab's title names the call and the hook, as the log does; the attempt's id is a labelled value, for
  // support (a screen reader reads its term with it).
  return layout(
    `Attempt${record.call_id ? ` for call ${record.call_id}` : ''} · ${title}`,
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb">${back}</div>
          <div class="title-row">
            <h1>Attempt</h1>
            ${attemptBadge(record)}
          </div>
        </div>
      </div>
      <div class="stack">
        <section class="card" aria-labelledby="attempt-title">
          <div class="card-header"><h2 id="attempt-title">Outcome</h2></div>
          <div class="card-body">
            <dl class="kv">
              <dt>When</dt>
              <dd>${time(record.attempted_at)}</dd>
              <dt>Attempt ID</dt>
              <dd class="mono" data-attempt-id>${record.attempt_id}</dd>
              <dt>Event</dt>
              <dd class="mono">${record.event_id} (${record.event_type})</dd>
              ${
                record.call_id
                  ? html`<dt>Call</dt>
                      <dd class="mono">${record.call_id}</dd>`
                  : ''
              }
              <dt>Started by</dt>
              <dd>${TRIGGERS[record.trigger] ?? record.trigger}</dd>
              <dt>Status</dt>
              <dd>${record.status_code ?? '—'}</dd>
              <dt>Duration</dt>
              <dd>${record.outcome === 'erased' ? '—' : duration(record.duration_ms)}</dd>
              ${
                record.error
                  ? html`<dt>Error</dt>
                      <dd>${errorText(record.error)}</dd>`
                  : ''
              }
              ${
                // For an SRE following the call through their tracing tool: the trace to search for.
                record.trace_id
                  ? html`<dt>Trace</dt>
                      <dd class="mono" data-trace-id>${record.trace_id}</dd>`
                  : ''
              }
            </dl>
          </div>
        </section>
        <section class="card" aria-labelledby="request-title">
          <div class="card-header">
            <div>
              <h2 id="request-title">Request</h2>
              <p>Exactly as sent; credentials masked.</p>
            </div>
          </div>
          <div class="card-body">${requestBlock(record)}</div>
        </section>
        <section class="card" aria-labelledby="response-title">
          <div class="card-header">
            <div>
              <h2 id="response-title">Response</h2>
              <p>The status code, the headers (cookie values not kept) and the first 4 KiB of the body.</p>
            </div>
          </div>
          <div class="card-body response-block">${responseBlock(record)}</div>
        </section>
        ${otherAttempts(hook, others)} ${'deleted' in hook ? deletedCard : resendCard(viewer, hook, record)}
      </div>`,
  );
}

// What the server would refuse is not offered (product.md §15): a record that cannot be sent again says why
// in place of the button.
const REFUSED: Record<NonNullable<ReturnType<typeof resendRefusal>>, string> = {
  erased: 'This event was erased on request (personal data), so it cannot be sent again.',
  not_kept: 'This attempt cannot be sent again: its record does not keep the event.',
};

/** Why this attempt cannot be sent again, in words (for a record resendRefusal refuses). */
export function resendRefusedText(record: AttemptRecord): string {
  return REFUSED[resendRefusal(record) ?? 'not_kept'];
}

const deletedCard = html`<section class="card" aria-labelledby="again-title">
  <div class="card-header"><h2 id="again-title">Send again</h2></div>
  <div class="card-body"><p data-hook-deleted>The hook was deleted: nothing can be sent to it again.</p></div>
</section>`;

function resendCard(viewer: Viewer, hook: HookView, record: AttemptRecord): SafeHtml {
  if (resendRefusal(record))
    return html`<section class="card" aria-labelledby="again-title">
      <div class="card-header"><h2 id="again-title">Send again</h2></div>
      <div class="card-body"><p data-resend-refused>${resendRefusedText(record)}</p></div>
    </section>`;
  return changeControl(
    viewer,
    (csrf) =>
      html`<section class="card" aria-labelledby="again-title">
        <div class="card-header"><h2 id="again-title">Send again</h2></div>
        <div class="card-body">
          <p>
            The same event (same id, same body) joins the end of this hook's queue: it arrives after every
            event queued before it, once. This never happens by itself.
          </p>
          <form
            method="post"
            action="/hooks/${hook.id}/deliveries/${record.attempt_id}/resend"
            data-confirm="Send this event again? It will arrive after the events already queued for this hook."
          >
            ${csrfField(csrf)}
            <button class="btn btn-secondary" type="submit">Send again</button>
          </form>
        </div>
      </section>`,
  );
}
