import type { HookView } from '@hookline/core';
import type { DeliveryLine } from '@hookline/history';
import { html, type SafeHtml } from '../view/html';
import { attemptBadge, time } from '../view/format';
import { layout, type Viewer } from '../view/layout';

/** The search box: by call id, across every hook of the account. */
export function searchBox(value = ''): SafeHtml {
  return html`<form class="search-box" method="get" action="/search" role="search">
    <label for="search-call">Find a call</label>
    <input
      id="search-call"
      name="call_id"
      value="${value}"
      placeholder="call id, e.g. 9309b4a2-d59f"
      maxlength="256"
    />
    <button class="btn btn-secondary" type="submit">Search</button>
  </form>`;
}

export interface SearchResults {
  readonly callId: string;
  readonly lines: readonly DeliveryLine[];
  readonly hooks: ReadonlyMap<string, HookView>;
  readonly next?: string;
  readonly problem?: string;
}

function row(line: DeliveryLine, hooks: ReadonlyMap<string, HookView>): SafeHtml {
  const hook = hooks.get(line.hook_id);
  const name = hook ? (hook.description ?? hook.url) : 'a deleted hook';
  return html`<tr data-attempt-id="${line.attempt_id}">
    <td data-label="Time">${time(line.attempted_at)}</td>
    <td data-label="Hook">
      ${hook ? html`<a href="/hooks/${hook.id}">${name}</a>` : html`<span class="muted">${name}</span>`}
    </td>
    <td data-label="Event">
      ${line.event_type} <span class="mono" data-call-id>${line.call_id ?? '—'}</span>
    </td>
    <td data-label="Outcome">${attemptBadge(line)}</td>
    <td data-label="Status">${line.status_code ?? '—'}</td>
    <td data-label="Attempt">
      <a class="mono" href="/hooks/${line.hook_id}/deliveries/${line.attempt_id}">Details</a>
    </td>
  </tr>`;
}

/** "Did call X's event reach my endpoints?": every attempt for that call, on every hook of the account. */
export function searchPage(viewer: Viewer, r: SearchResults): SafeHtml {
  return layout(
    r.callId && !r.problem ? `Call ${r.callId}` : 'Find a call',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb"><a href="/">← All hooks</a></div>
          <h1>Find a call</h1>
          <p class="sub">
            Every attempt to deliver a call's events, on every one of your hooks, newest first.
          </p>
        </div>
      </div>
      <div class="stack">
        <section class="card">
          <div class="card-body">
            ${searchBox(r.callId)} ${r.problem ? html`<p class="field-error">${r.problem}</p>` : ''}
          </div>
        </section>
        ${
          r.callId && !r.problem
            ? html`<section class="card" aria-labelledby="results-title">
                <div class="card-header"><h2 id="results-title">Attempts for call ${r.callId}</h2></div>
                ${
                  r.lines.length === 0
                    ? html`<div class="empty">
                        <p>No attempt for this call in the history (kept 30 days by default).</p>
                      </div>`
                    : html`<div class="table-wrap">
                        <table class="log" data-search-results>
                          <thead>
                            <tr>
                              <th scope="col">Time</th>
                              <th scope="col">Hook</th>
                              <th scope="col">Event</th>
                              <th scope="col">Outcome</th>
                              <th scope="col">Status</th>
                              <th scope="col">Attempt</th>
                            </tr>
                          </thead>
                          <tbody>
                            ${r.lines.map((line) => row(line, r.hooks))}
                          </tbody>
                        </table>
                      </div>`
                }
                ${r.next ? html`<div class="card-body"><a href="/search?call_id=${encodeURIComponent(r.callId)}&cursor=${r.next}">Older →</a></div>` : ''}
              </section>`
            : ''
        }
      </div>`,
  );
}
