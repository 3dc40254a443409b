import type { HeldEventView } from '@hookline/store';
import { html, type SafeHtml } from '../view/html';
import { plural, time } from '../view/format';

export const HELD_PAGE = 20;

export interface HeldList {
  /** As the API lists them too (store's held-events.ts): no call id while an erasure reaching the event runs. */
  readonly events: readonly HeldEventView[];
  /** Position of the first one shown (0: the next to go). */
  readonly from: number;
  readonly total: number;
}

/**
 * The held events, in the order they would be delivered, a page at a time (a link per page). `byAdmin`: the
 * hook is paused by an administrator, not suspended for its failures, and the card says which.
 */
export function heldEventsCard(hookId: string, list: HeldList, byAdmin = false): SafeHtml {
  if (list.total === 0) return html``;
  const { from, total, events } = list;
  const link = (at: number, label: string) =>
    html`<a href="/hooks/${hookId}?held_from=${String(at)}#held-title">${label}</a>`;
  return html`<section class="card" aria-labelledby="held-title" data-held-events>
    <div class="card-header">
      <div>
        <h2 id="held-title">Held events</h2>
        <p>
          ${plural(total, 'event')} accepted while the hook is
          ${byAdmin ? 'paused by an administrator' : 'suspended'}, in the order they would be delivered.
        </p>
      </div>
    </div>
    <div class="table-wrap">
      <table class="log">
        <caption class="visually-hidden">
          Held events, oldest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Accepted at</th>
            <th scope="col">Kind</th>
            <th scope="col">Call id</th>
          </tr>
        </thead>
        <tbody>
          ${events.map(
            (e) =>
              html`<tr data-held-call="${e.call_id ?? ''}">
                <td data-label="Accepted at">${time(e.accepted_at)}</td>
                <td data-label="Kind">${e.type}</td>
                <td data-label="Call id"><span class="mono">${e.call_id ?? '—'}</span></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <div class="card-body log-more">
      <span>${String(from + 1)}–${String(from + events.length)} of ${String(total)}</span>
      ${from > 0 ? link(Math.max(0, from - HELD_PAGE), '← Earlier') : ''}
      ${from + events.length < total ? link(from + HELD_PAGE, 'Later →') : ''}
    </div>
  </section>`;
}
