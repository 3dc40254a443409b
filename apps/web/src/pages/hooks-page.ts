import { createHash } from 'node:crypto';
import type { DeliveryRecord, HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { ago, authSummary, attemptBadge, pausedByAdmin, plural, stateBadge, time } from '../view/format';
import { layout, type Viewer } from '../view/layout';
import { changeControl, type ChangeRights } from '../view/read-only';
import { searchBox } from './search-page';

export interface HookSummary {
  readonly hook: HookView;
  readonly lastDelivery?: DeliveryRecord;
  /** Events held while the hook is suspended (only for a suspended hook). */
  readonly held?: number;
  /** The delivery history could not be read, so the last delivery is not known. */
  readonly historyUnreadable?: boolean;
}

const REFRESH_MS = 3000;

function lastDelivery({ lastDelivery: record, historyUnreadable }: HookSummary, now: Date): SafeHtml {
  if (historyUnreadable) return html`<span class="muted">Last delivery cannot be read right now</span>`;
  if (!record) return html`<span>No deliveries yet</span>`;
  return html`<span>Last delivery ${attemptBadge(record)}</span>
    <span title="${record.attempted_at}">${ago(record.attempted_at, now)}</span>`;
}

/** A hook's state badge, held count and suspension time: what changes while the list is open. */
function stateLine({ hook, held }: HookSummary): SafeHtml {
  return html`${stateBadge(hook)} <span>${hook.format === 'json' ? 'JSON' : 'Form'}</span>
    <span>${authSummary(hook.auth)}</span>
    ${
      hook.suspended_at
        ? html`<span>${pausedByAdmin(hook) ? 'Paused' : 'Suspended'} ${time(hook.suspended_at)}</span>`
        : ''
    }
    ${
      held !== undefined
        ? html`<span data-held-count
            >${held === 0 ? 'No events held' : `${plural(held, 'event')} held`}</span
          >`
        : ''
    }`;
}

// Above the list while the delivery history cannot be read: the hooks are all there, their last deliveries are not.
const historyNotice = (hooks: readonly HookSummary[]) =>
  hooks.some((h) => h.historyUnreadable)
    ? html`<div class="alert alert-warning" role="status" data-history-unreadable>
        <p>
          <strong>Your delivery history cannot be read right now,</strong> so the last delivery of each hook
          is not shown. Your hooks and their settings are all here. Try again in a moment.
        </p>
      </div>`
    : html``;

/**
 * The parts of the list that follow the hooks while it is open (§15 "live pages stay true"): the page and
 * the live endpoint render them alike, and the script swaps each one that changed.
 */
export function hooksLiveParts(
  hooks: readonly HookSummary[],
  now: Date,
  who: ChangeRights,
): Record<string, SafeHtml> {
  const parts: Record<string, SafeHtml> = {
    summary: suspendedSummary(hooks, who),
    // Comes and goes with the database: an open list says so, and stops saying it, without a reload.
    history: historyNotice(hooks),
  };
  for (const summary of hooks) {
    parts[`state-${summary.hook.id}`] = stateLine(summary);
    parts[`last-${summary.hook.id}`] = lastDelivery(summary, now);
  }
  return parts;
}

/** Which hooks the list shows: when another set answers, the page is loaded again (its rows change). */
export const hooksShape = (hooks: readonly HookSummary[]): string =>
  createHash('sha256')
    .update(hooks.map((h) => h.hook.id).join(','))
    .digest('base64url')
    .slice(0, 16);

function hookRow(summary: HookSummary, parts: Record<string, SafeHtml>): SafeHtml {
  const { hook } = summary;
  return html`<li class="hook-row" data-hook-id="${hook.id}">
    <div>
      ${
        hook.description
          ? html`<a class="hook-link" href="/hooks/${hook.id}">${hook.description}</a>
              <div class="muted url">${hook.url}</div>`
          : html`<a class="hook-link url" href="/hooks/${hook.id}">${hook.url}</a>`
      }
      <div class="hook-meta" data-live="state-${hook.id}">${parts[`state-${hook.id}`]}</div>
    </div>
    <div class="hook-side" data-live="last-${hook.id}">${parts[`last-${hook.id}`]}</div>
  </li>`;
}

/**
 * How many hooks are suspended. Only those a customer may re-enable are offered to them: a read-only session
 * can re-enable none, and a hook an administrator paused waits for an administrator.
 */
function suspendedSummary(hooks: readonly HookSummary[], who: ChangeRights): SafeHtml {
  const suspended = hooks.filter((h) => h.hook.state === 'suspended');
  if (suspended.length === 0) return html``;
  const paused = suspended.filter((h) => pausedByAdmin(h.hook)).length;
  const own = suspended.length - paused;
  const one = own === 1;
  const yours =
    own === 0
      ? html``
      : html`<strong>${plural(own, 'hook is', 'hooks are')} suspended.</strong> Events for
          ${one ? 'it are' : 'them are'} held until
          ${
            who.readOnly
              ? `${one ? 'it is' : 'they are'} re-enabled.`
              : `you re-enable ${one ? 'it' : 'them'} on the hook's page.`
          }`;
  const byAdmin =
    paused === 0
      ? html``
      : html`<strong>${plural(paused, 'hook was', 'hooks were')} paused by an administrator.</strong> Only an
          administrator can resume ${paused === 1 ? 'it' : 'them'}.`;
  return html`<div class="alert alert-error" role="alert">
    <p>${yours} ${byAdmin}</p>
  </div>`;
}

const emptyState = (who: ChangeRights) =>
  html`<div class="card empty">
    <h2>No hooks yet</h2>
    <p>A hook sends your phone system's events, such as <code>call_created</code>, to a URL you choose.</p>
    ${changeControl(who, () => html`<a class="btn btn-primary" href="/hooks/new">Create your first hook</a>`)}
  </div>`;

export function hooksPage(viewer: Viewer, hooks: readonly HookSummary[], now: Date): SafeHtml {
  const parts = hooksLiveParts(hooks, now, viewer);
  return layout(
    'Hooks',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <h1>Hooks</h1>
          <p class="sub">Endpoints that receive your events, one at a time and in order.</p>
        </div>
        ${changeControl(
          viewer,
          () => html`<div class="actions"><a class="btn btn-primary" href="/hooks/new">New hook</a></div>`,
        )}
      </div>
      <div data-live-url="/hooks/live" data-live-every="${REFRESH_MS}" data-live-shape="${hooksShape(hooks)}">
        <div data-live="summary">${parts.summary}</div>
        <div data-live="history">${parts.history}</div>
        ${
          hooks.length === 0
            ? emptyState(viewer)
            : html`<section class="card" aria-label="Search">
                  <div class="card-body">${searchBox()}</div>
                </section>
                <section class="card" aria-label="Your hooks">
                  <ul class="hook-list">
                    ${hooks.map((h) => hookRow(h, parts))}
                  </ul>
                </section>`
        }
      </div>`,
  );
}
