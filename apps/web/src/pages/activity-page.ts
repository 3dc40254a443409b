import type { AuditEntry, HookView } from '@hookline/core';
import type { ActivityEntry, ActivityKind } from '@hookline/store';
import { html, type SafeHtml } from '../view/html';
import { recordedText, time } from '../view/format';
import { DEFAULT_BRAND } from '../view/brand';
import { layout, type Viewer } from '../view/layout';
import { ACTION_WORDS, actorWords, detailWords } from './audit-words';

// What hookline itself did (the monitor's entries in the activity feed): people's changes come from the
// audit log. The feed's erasure entries are not listed: an erasure is asked for by someone, and the audit log
// already shows its request and its end with who asked, in words (the feed's text has the erasure's id).
const AUTOMATIC: Partial<Record<ActivityKind, [string, string]>> = {
  'hook.failing': ['Hook failing', 'badge-warn'],
  'hook.suspended': ['Hook suspended', 'badge-bad'],
  'hook.stuck': ['Deliveries stalled', 'badge-warn'],
};

function subject(hookId: string | undefined, hooks: ReadonlyMap<string, HookView>): SafeHtml {
  if (!hookId) return html``;
  const hook = hooks.get(hookId);
  return hook
    ? html`<a class="${hook.description ? '' : 'url'}" href="/hooks/${hook.id}"
        >${hook.description ?? hook.url}</a
      >`
    : html`<span class="muted">a hook that was deleted</span>`;
}

function change(entry: AuditEntry, hooks: ReadonlyMap<string, HookView>): SafeHtml {
  const [label, tone] = ACTION_WORDS[entry.action] ?? ['Changed', ''];
  const detail = detailWords(entry);
  return html`<li data-kind="${entry.action}" data-actor="${entry.actor.kind}">
    <span class="badge badge-plain ${tone}">${label}</span>
    <span
      >${subject(entry.hook_id, hooks)}
      <span class="muted">by ${actorWords(entry.actor)}</span
      >${entry.address ? html` <span class="muted" data-address>from ${entry.address}</span>` : ''}</span
    >
    <span class="when">${time(entry.at)}</span>
    ${detail ? html`<span class="detail">${recordedText(detail)}</span>` : ''}
  </li>`;
}

function automatic(entry: ActivityEntry, hooks: ReadonlyMap<string, HookView>, by: string): SafeHtml {
  const [label, tone] = AUTOMATIC[entry.kind] ?? [entry.kind, ''];
  return html`<li data-kind="${entry.kind}">
    <span class="badge badge-plain ${tone}">${label}</span>
    <span>${subject(entry.hook_id, hooks)} <span class="muted">by ${by}, automatically</span></span>
    <span class="when">${time(entry.at)}</span>
    ${entry.detail ? html`<span class="detail">${entry.detail}</span>` : ''}
  </li>`;
}

export interface ActivityView {
  /** Changes made by people (the audit log), newest first, one page. */
  readonly changes: readonly AuditEntry[];
  readonly next?: string;
  /** What hookline did by itself (suspensions, failing, stalls), newest first; on the first page only. */
  readonly automatic: readonly ActivityEntry[];
}

export function activityPage(
  viewer: Viewer,
  view: ActivityView,
  hooks: ReadonlyMap<string, HookView>,
): SafeHtml {
  // Only what hookline did itself: an admin's pause also writes a suspension into the feed, and the audit log
  // above already says it with the admin's name and reason.
  const auto = view.automatic.filter((e) => AUTOMATIC[e.kind] && e.actor === 'monitor');
  const by = (viewer.brand ?? DEFAULT_BRAND).name;
  return layout(
    'Activity',
    viewer,
    'activity',
    html`<div class="page-header">
        <div>
          <h1>Activity</h1>
          <p class="sub">Every change made to your hooks, who made it and when, newest first.</p>
        </div>
      </div>
      ${
        view.changes.length === 0
          ? html`<div class="card empty"><p>Nobody has changed anything yet.</p></div>`
          : html`<section class="card" aria-label="Changes">
              <ul class="feed">
                ${view.changes.map((e) => change(e, hooks))}
              </ul>
              ${view.next ? html`<div class="card-body"><a href="/activity?cursor=${view.next}">Older →</a></div>` : ''}
            </section>`
      }
      ${
        auto.length === 0
          ? ''
          : html`<h2>Done by ${by} automatically</h2>
              <section class="card" aria-label="Done automatically">
                <ul class="feed">
                  ${auto.map((e) => automatic(e, hooks, by))}
                </ul>
              </section>`
      }`,
  );
}
