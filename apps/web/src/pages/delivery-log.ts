import { isDropped, type DeliveryRecord } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { duration, errorText, attemptBadge, time } from '../view/format';

const EXCERPT_CHARS = 400;

const EMPTY = {
  all: 'No deliveries yet. Events appear here as they are delivered; send a test event to try it.',
  filtered: 'No attempt matches these filters. Widen the times or clear the filters to see more.',
  older: 'No older attempts.',
} as const;

// Who asked for an attempt, when not the event's own publish.
const TRIGGERS_IN_WORDS: Readonly<Record<string, string>> = {
  manual: ' · sent again',
  test: ' · test event',
  probe: ' · test before re-enabling',
};
const dash = html`<span class="muted">—</span>`;

function excerpt(text: string | undefined): SafeHtml {
  if (!text) return dash;
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return html`<code title="${text.slice(0, 2000)}">${cut}</code>`;
}

function row(record: DeliveryRecord, hookId: string): SafeHtml {
  return html`<tr data-event-id="${record.event_id}" data-outcome="${record.outcome}">
    <td data-label="Time">
      <div>
        <a href="/hooks/${hookId}/deliveries/${record.attempt_id}">${time(record.attempted_at)}</a>
        <div class="muted" data-event>
          ${record.event_type} · <span class="mono" data-call-id>${record.call_id ?? '—'}</span>${
            TRIGGERS_IN_WORDS[record.trigger] ?? ''
          }
        </div>
      </div>
    </td>
    <td data-label="Outcome">
      ${attemptBadge(record)}
      ${record.erased_at && record.outcome !== 'erased' ? html` <span class="badge" data-erased>Erased</span>` : ''}
    </td>
    <td data-label="Status">${record.status_code ?? dash}</td>
    <td data-label="Duration">${isDropped(record.outcome) ? dash : duration(record.duration_ms)}</td>
    <td data-label="Error">${record.error ? errorText(record.error) : dash}</td>
    <td data-label="Response" class="excerpt">${excerpt(record.response_excerpt)}</td>
  </tr>`;
}

/** The log's inner markup; the hook page embeds it and the script re-fetches it to keep it current. */
export function deliveryLog(
  records: readonly DeliveryRecord[],
  hookId: string,
  view: 'all' | 'filtered' | 'older' = 'all',
): SafeHtml {
  if (records.length === 0)
    return html`<div class="empty">
      <p>${EMPTY[view]}</p>
    </div>`;
  return html`<div class="table-wrap">
    <table class="log">
      <caption class="visually-hidden">
        Delivery attempts, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Outcome</th>
          <th scope="col">Status</th>
          <th scope="col">Duration</th>
          <th scope="col">Error</th>
          <th scope="col">Response</th>
        </tr>
      </thead>
      <tbody>
        ${records.map((record) => row(record, hookId))}
      </tbody>
    </table>
  </div>`;
}
