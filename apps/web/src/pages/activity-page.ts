import type { HookView } from '@hookline/core';
import type { ActivityEntry, ActivityKind } from '@hookline/store';
import { html, type SafeHtml } from '../view/html';
import { recordedText, time } from '../view/format';
import { layout, type Viewer } from '../view/layout';

const KINDS: Record<ActivityKind, [string, string]> = {
  'hook.created': ['Hook created', 'badge-ok'],
  'hook.updated': ['Hook changed', ''],
  'hook.deleted': ['Hook deleted', 'badge-warn'],
  'hook.failing': ['Hook failing', 'badge-warn'],
  'hook.suspended': ['Hook suspended', 'badge-bad'],
  'hook.enabled': ['Hook re-enabled', 'badge-ok'],
  'hook.stuck': ['Deliveries stalled', 'badge-warn'],
  'account.password_changed': ['Password changed', ''],
};

export function actorLabel(actor: string, accountId: string): string {
  if (actor === `customer:${accountId}`) return 'you';
  if (actor === 'operator') return 'the operator (API)';
  if (actor === 'monitor') return 'hookline, automatically';
  if (actor.startsWith('admin:')) return 'an administrator';
  // Never an internal id in a sentence for customers.
  return 'someone else';
}

function subject(entry: ActivityEntry, hooks: ReadonlyMap<string, HookView>): SafeHtml {
  if (!entry.hook_id) return html``;
  const hook = hooks.get(entry.hook_id);
  return hook
    ? html`<a class="${hook.description ? '' : 'url'}" href="/hooks/${hook.id}"
        >${hook.description ?? hook.url}</a
      >`
    : html`<span class="mono muted">${entry.hook_id}</span>`;
}

function item(entry: ActivityEntry, accountId: string, hooks: ReadonlyMap<string, HookView>): SafeHtml {
  const [label, tone] = KINDS[entry.kind] ?? [entry.kind, ''];
  const detail = entry.kind === 'hook.updated' && entry.detail ? `Changed: ${entry.detail}` : entry.detail;
  return html`<li data-kind="${entry.kind}">
    <span class="badge badge-plain ${tone}">${label}</span>
    <span>${subject(entry, hooks)} <span class="muted">by ${actorLabel(entry.actor, accountId)}</span></span>
    <span class="when">${time(entry.at)}</span>
    ${detail ? html`<span class="detail">${recordedText(detail)}</span>` : ''}
  </li>`;
}

export function activityPage(
  viewer: Viewer,
  entries: readonly ActivityEntry[],
  hooks: ReadonlyMap<string, HookView>,
): SafeHtml {
  return layout(
    'Activity',
    viewer,
    'activity',
    html`<div class="page-header">
        <div>
          <h1>Activity</h1>
          <p class="sub">Suspensions, re-enables and changes to your hooks, newest first.</p>
        </div>
      </div>
      ${
        entries.length === 0
          ? html`<div class="card empty"><p>Nothing has happened yet.</p></div>`
          : html`<section class="card" aria-label="Activity">
              <ul class="feed">
                ${entries.map((e) => item(e, viewer.account.id, hooks))}
              </ul>
            </section>`
      }`,
  );
}
