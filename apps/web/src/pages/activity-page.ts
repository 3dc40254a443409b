import type { AuditEntry, HookView } from '@hookline/core';
import type { ActivityEntry, ActivityKind } from '@hookline/store';
import type { TimelinePage } from '../activity-timeline';
import { html, type SafeHtml } from '../view/html';
import { recordedText, time } from '../view/format';
import { DEFAULT_BRAND } from '../view/brand';
import { layout, type Viewer } from '../view/layout';
import { ACTION_WORDS, actorWords, detailWords } from './audit-words';

// What hookline itself did (the monitor's entries in the activity feed, see activity-timeline.ts), in words,
// beside people's changes from the audit log.
const AUTOMATIC: Partial<Record<ActivityKind, [string, string]>> = {
  'hook.failing': ['Hook failing', 'badge-warn'],
  'hook.suspended': ['Hook suspended', 'badge-bad'],
  'hook.stuck': ['Deliveries stalled', 'badge-warn'],
  'hook.enabled': ['Hook re-enabled', 'badge-ok'],
};

type HookName = Pick<HookView, 'url' | 'description'>;

/** The hooks an entry may be about: those there now, and those deleted since, by the last name recorded. */
interface KnownHooks {
  readonly live: ReadonlyMap<string, HookView>;
  readonly gone: ReadonlyMap<string, HookName>;
}

const recordedName = (entry: AuditEntry): HookName | undefined =>
  entry.detail.url ? { url: entry.detail.url, description: entry.detail.description } : undefined;

/**
 * Which hook an entry is about. An entry that recorded the hook's address and description (hook.created,
 * hook.deleted) names it as it was then; a hook gone since is said to be, without guessing who deleted it.
 */
function subject(hookId: string | undefined, known: KnownHooks, entry?: AuditEntry): SafeHtml {
  if (!hookId) return html``;
  const hook = known.live.get(hookId);
  const named = (entry && recordedName(entry)) ?? hook ?? known.gone.get(hookId);
  const name = named
    ? html`<span class="${named.description ? '' : 'url'}">${named.description ?? named.url}</span>`
    : undefined;
  if (hook) return html`<a href="/hooks/${hook.id}">${name}</a>`;
  // The deletion's own entry needs no note that the hook is gone.
  const gone = entry?.action === 'hook.deleted' ? '' : html` <span class="muted">(deleted since)</span>`;
  return html`${name ?? html`<span class="muted">a hook</span>`}${gone}`;
}

/** Names of deleted hooks from the page's own entries, newest first: the name a hook had when it was deleted. */
function goneNames(page: TimelinePage, live: ReadonlyMap<string, HookView>): Map<string, HookName> {
  const gone = new Map<string, HookName>();
  for (const item of page.items) {
    if (item.source !== 'change') continue;
    const { hook_id: id } = item.entry;
    const name = recordedName(item.entry);
    if (id && name && !live.has(id) && !gone.has(id)) gone.set(id, name);
  }
  return gone;
}

function change(entry: AuditEntry, hooks: KnownHooks): SafeHtml {
  const [label, tone] = ACTION_WORDS[entry.action] ?? ['Changed', ''];
  const detail = detailWords(entry);
  return html`<li data-kind="${entry.action}" data-actor="${entry.actor.kind}">
    <span class="badge badge-plain ${tone}">${label}</span>
    <span
      >${subject(entry.hook_id, hooks, entry)}
      <span class="muted">by ${actorWords(entry.actor)}</span
      >${entry.address ? html` <span class="muted" data-address>from ${entry.address}</span>` : ''}</span
    >
    <span class="when">${time(entry.at)}</span>
    ${detail ? html`<span class="detail">${recordedText(detail)}</span>` : ''}
  </li>`;
}

function automatic(entry: ActivityEntry, hooks: KnownHooks, by: string): SafeHtml {
  const [label, tone] = AUTOMATIC[entry.kind] ?? [entry.kind, ''];
  return html`<li data-kind="${entry.kind}" data-actor="automatic">
    <span class="badge badge-plain ${tone}">${label}</span>
    <span>${subject(entry.hook_id, hooks)} <span class="muted">by ${by}, automatically</span></span>
    <span class="when">${time(entry.at)}</span>
    ${entry.detail ? html`<span class="detail">${entry.detail}</span>` : ''}
  </li>`;
}

/** Said above the entries while the log's database cannot be read: those shown are only the newest. */
const UNREADABLE = html`<div class="alert alert-warning" role="status" data-log-unreadable>
  <p>
    <strong>Older changes cannot be read right now.</strong> Only the newest changes are shown; the rest are
    kept and will be shown again once they can be read. Try again in a moment.
  </p>
</div>`;

export function activityPage(
  viewer: Viewer,
  page: TimelinePage,
  hooks: ReadonlyMap<string, HookView>,
  options: { readonly logUnreadable?: boolean } = {},
): SafeHtml {
  const by = (viewer.brand ?? DEFAULT_BRAND).name;
  const known = { live: hooks, gone: goneNames(page, hooks) };
  return layout(
    'Activity',
    viewer,
    'activity',
    html`<div class="page-header">
        <div>
          <h1>Activity</h1>
          <p class="sub">
            Every change made to your hooks, who made it and when, and what ${by} did by itself, newest first.
          </p>
        </div>
      </div>
      ${options.logUnreadable ? UNREADABLE : ''}
      ${
        page.items.length === 0
          ? options.logUnreadable
            ? ''
            : html`<div class="card empty"><p>Nothing has happened yet.</p></div>`
          : html`<section class="card" aria-label="Activity">
              <ul class="feed">
                ${page.items.map((item) =>
                  item.source === 'change' ? change(item.entry, known) : automatic(item.entry, known, by),
                )}
              </ul>
              ${page.next ? html`<div class="card-body"><a href="/activity?cursor=${page.next}">Older →</a></div>` : ''}
            </section>`
      }`,
  );
}
