import type { DeliveryRecord, HookEvents, HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { authSummary, formatLabel, stateBadge, time } from '../view/format';
import { csrfField, layout, type Viewer } from '../view/layout';
import { changeControl, type ChangeRights } from '../view/read-only';
import { deliveryLog } from './delivery-log';
import { certificateExpiryBanner } from './certificate-expiry-banner';
import { egressWaitBanner } from './egress-wait-banner';
import { healthCard, type CardHealth } from './health-card';
import { heldEventsCard, type HeldList } from './held-events';
import { logFilters, type LogQuery } from './log-filters';
import { hookGets, requestPreview, type PreviewOptions } from './request-preview';
import { suspensionBanner } from './suspension-banner';
import type { SuspensionRule } from './suspension-rule';

export interface HookPageInput {
  readonly hook: HookView;
  readonly deliveries: readonly DeliveryRecord[];
  /** Only for a suspended hook: the failures that caused it and how many events are held. */
  readonly suspension?: {
    readonly failures: readonly DeliveryRecord[];
    /** The failures are the streak's latest only (it had more than the banner keeps). */
    readonly latestOnly?: boolean;
    readonly held: number;
    readonly heldList?: HeldList;
    readonly byAdmin?: boolean;
  };
  readonly preview: PreviewOptions;
  /** The log's filters and page; a filtered or paged log is not refreshed by itself. */
  readonly query: LogQuery;
  /** The cursor of the next (older) page, when there is one. */
  readonly next?: string;
  /** Absent while the delivery history cannot be read (`historyUnreadable`). */
  readonly health?: CardHealth;
  /** The delivery history could not be read: the log and health say so, the rest of the page stands. */
  readonly historyUnreadable?: boolean;
  /** What makes a hook Failing and suspended (the settings), said near health and in the banner. */
  readonly rule: SuspensionRule;
  /** The health chart's window, when not the default 24 hours ("7d"). */
  readonly window?: string;
}

/**
 * Where this page is in the log ("Attempts 51–100"), and the way to newer and older pages. Cursors only go
 * older, so the link to newer pages carries the cursors of the pages before it.
 */
function pager(hookId: string, q: LogQuery, shown: number, next: string | undefined): SafeHtml | string {
  if (!next && !q.cursor) return '';
  const view = {
    ...Object.fromEntries(Object.entries(q.values).filter(([, v]) => v)),
    ...(q.values.since || q.values.until ? { tz: q.zone } : {}),
  };
  const link = (cursor: string, back: readonly string[], from: number) =>
    `/hooks/${hookId}?${new URLSearchParams({
      ...view,
      ...(cursor ? { cursor, back: back.join('.'), from: String(from) } : {}),
    }).toString()}`;
  const newerCursor = q.back.at(-1);
  return html`<div class="card-body log-more">
    ${shown > 0 ? html`<span data-log-position>Attempts ${String(q.from + 1)}–${String(q.from + shown)}</span>` : ''}
    ${
      q.cursor
        ? html`<a href="${link(newerCursor ?? '', q.back.slice(0, -1), Math.max(0, q.from - q.page.limit))}"
            >← Newer</a
          >`
        : ''
    }
    ${next ? html`<a href="${link(next, [...q.back, q.cursor ?? ''], q.from + shown)}">Older →</a>` : ''}
  </div>`;
}

const REFRESH_MS = 3000;

const eventsSummary = (events: HookEvents): SafeHtml =>
  events === 'all'
    ? html`Every kind <span class="muted">(also kinds added later)</span>`
    : html`${events.map((name, i) => html`${i > 0 ? ', ' : ''}<code>${name}</code>`)}`;

function signingSummary(hook: HookView, who: ChangeRights): SafeHtml {
  if (!hook.signing) return html`<span class="muted">Off</span>`;
  return html`On (Standard Webhooks)
  ${
    hook.signing_previous_expires_at
      ? html`<span class="muted"
          >· previous secret also signs until ${time(hook.signing_previous_expires_at)}</span
        >`
      : ''
  }
  ${changeControl(
    who,
    (csrf) =>
      html`<form
        method="post"
        action="/hooks/${hook.id}/signing-secret/rotate"
        class="inline-form"
        data-confirm="Make a new signing secret? Both secrets sign for the next 24 hours; then only the new one."
      >
        ${csrfField(csrf)}
        <button class="btn btn-secondary btn-small" type="submit">Rotate secret</button>
      </form>`,
  )}`;
}

function settings(hook: HookView, who: ChangeRights): SafeHtml {
  return html`<section class="card" aria-labelledby="settings-title">
    <div class="card-header">
      <h2 id="settings-title">Settings</h2>
      ${changeControl(who, () => html`<a href="/hooks/${hook.id}/edit">Edit</a>`)}
    </div>
    <div class="card-body">
      <dl class="kv">
        <dt>URL</dt>
        <dd class="url">${hook.url}</dd>
        <dt>Format</dt>
        <dd>${formatLabel(hook.format)}</dd>
        <dt>Authentication</dt>
        <dd>${authSummary(hook.auth)}</dd>
        <dt>Events</dt>
        <dd data-hook-events>${eventsSummary(hook.events)}</dd>
        <dt>Signatures</dt>
        <dd data-hook-signing>${signingSummary(hook, who)}</dd>
        <dt>Client certificate</dt>
        <dd data-hook-tls>
          ${
            hook.tls
              ? html`${hook.tls.subject}
                  <span class="muted"
                    >· issued by ${hook.tls.issuer} · valid until
                    ${time(hook.tls.expires_at)}${hook.tls.private_ca ? ' · private CA' : ''}</span
                  >`
              : html`<span class="muted">None</span>`
          }
        </dd>
        <dt>Extra headers</dt>
        <dd data-hook-headers>
          ${
            hook.headers
              ? Object.entries(hook.headers).map(
                  ([name, value]) => html`<code>${name}: ${value}</code><br />`,
                )
              : html`<span class="muted">None</span>`
          }
        </dd>
        <dt>Description</dt>
        <dd>${hook.description ?? html`<span class="muted">None</span>`}</dd>
        <dt>Created</dt>
        <dd>${time(hook.created_at)}</dd>
        <dt>Hook ID</dt>
        <dd class="mono">${hook.id}</dd>
      </dl>
    </div>
  </section>`;
}

// Said where the log and health would be while the history's database cannot be read.
const UNREADABLE = {
  log:
    'The delivery history cannot be read right now, so attempts are not shown. ' +
    'The hook and its settings are unaffected. Try again in a moment.',
  health: 'The delivery history cannot be read right now, so health is not shown.',
};

export type LivePart =
  'heading' | 'address' | 'badge' | 'banner' | 'held' | 'log' | 'health' | 'settings' | 'preview';

/**
 * The parts of a hook's page that follow the hook while it is open (§15 "live pages stay true"): the page
 * and the live endpoint render them alike, for the same visitor (a read-only session's parts offer no change
 * either), and the script swaps each one that changed.
 */
export function liveParts(
  { hook, deliveries, suspension, query, next, health, rule, preview, historyUnreadable }: HookPageInput,
  who: ChangeRights,
): Record<LivePart, SafeHtml> {
  return {
    // The hook's name, address and settings follow an edit made elsewhere (another tab, the API): during an
    // incident the reader must not act on an endpoint that was just replaced.
    heading: html`<h1>${hook.description ?? 'Hook'}</h1>`,
    address: html`<p class="sub url">${hook.url}</p>`,
    badge: html`<span data-hook-state="${hook.state}">${stateBadge(hook)}</span>`,
    banner: html`${
      hook.state === 'suspended'
        ? suspensionBanner({
            hook,
            failures: suspension?.failures ?? [],
            held: suspension?.held ?? 0,
            who,
            rule,
            ...(suspension?.byAdmin ? { byAdmin: true } : {}),
            ...(suspension?.latestOnly ? { latestOnly: true } : {}),
          })
        : ''
    }
    ${egressWaitBanner(hook)} ${certificateExpiryBanner(hook)}`,
    held: suspension?.heldList ? heldEventsCard(hook.id, suspension.heldList, suspension.byAdmin) : html``,
    log: historyUnreadable
      ? html`<div id="delivery-log" data-state="${hook.state}">
          <p class="card-body muted" data-history-unreadable>${UNREADABLE.log}</p>
        </div>`
      : html`<div id="delivery-log" data-state="${hook.state}">
            ${deliveryLog(
              deliveries,
              hook.id,
              Object.keys(query.filter).length > 0 ? 'filtered' : query.cursor ? 'older' : 'all',
            )}
          </div>
          ${pager(hook.id, query, deliveries.length, next)}`,
    health: health
      ? healthCard(hook.id, health, rule)
      : html`<section class="card" aria-labelledby="health-title" data-health>
          <div class="card-header">
            <div><h2 id="health-title">Health</h2></div>
          </div>
          <p class="card-body muted">${UNREADABLE.health}</p>
        </section>`,
    settings: settings(hook, who),
    preview: html`${hookGets(hook)} ${requestPreview(hook, preview)}`,
  };
}

const live = (name: LivePart, content: SafeHtml) => html`<div data-live="${name}">${content}</div>`;

/** The live endpoint answers for the same log view (filters, page) as the page shows. */
// The page's view as its live parts must keep it: the log's filters and page, the held events' page, the
// health window. A part that followed the hook on another page than the one chosen would move under the reader.
function liveQuery(q: LogQuery, window: string | undefined, heldFrom: number | undefined): string {
  return new URLSearchParams({
    ...Object.fromEntries(Object.entries(q.values).filter(([, v]) => v)),
    ...(q.values.since || q.values.until ? { tz: q.zone } : {}),
    ...(q.cursor ? { cursor: q.cursor, back: q.back.join('.'), from: String(q.from) } : {}),
    ...(window ? { window } : {}),
    ...(heldFrom ? { held_from: String(heldFrom) } : {}),
  }).toString();
}

export function hookPage(viewer: Viewer, input: HookPageInput): SafeHtml {
  const { hook, query } = input;
  const parts = liveParts(input, viewer);
  return layout(
    hook.description ?? 'Hook',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb"><a href="/">← All hooks</a></div>
          <div class="title-row">${live('heading', parts.heading)} ${live('badge', parts.badge)}</div>
          ${live('address', parts.address)}
        </div>
        ${changeControl(
          viewer,
          (csrf) =>
            html`<div class="actions">
              ${
                // While suspended a test event would only be held: the banner's Test & re-enable tests instead.
                hook.state === 'suspended'
                  ? ''
                  : html`<form method="post" action="/hooks/${hook.id}/test">
                      ${csrfField(csrf)}
                      <button class="btn btn-primary" type="submit">Send test event</button>
                    </form>`
              }
              <a class="btn btn-secondary" href="/hooks/${hook.id}/edit">Edit</a>
              <a class="btn btn-danger-outline" href="/hooks/${hook.id}/delete">Delete</a>
            </div>`,
        )}
      </div>
      <div
        class="stack"
        data-live-url="/hooks/${hook.id}/live?${liveQuery(query, input.window, input.suspension?.heldList?.from)}"
        data-live-every="${REFRESH_MS}"
        data-live-shape="${hook.state}"
      >
        ${live('banner', parts.banner)} ${live('held', parts.held)}
        ${
          hook.insecure_credentials
            ? html`<div class="alert alert-warning" role="status">
                <p>
                  <strong>Credentials over plain HTTP.</strong> This hook sends its credentials to an
                  <code>http://</code> URL, where they can be read on the way. Switch to
                  <code>https://</code> if your endpoint supports it.
                </p>
              </div>`
            : ''
        }
        <section class="card" aria-labelledby="log-title">
          <div class="card-header">
            <div>
              <h2 id="log-title">Delivery log</h2>
              <p>Every attempt, newest first. Each event is sent once, never retried.</p>
            </div>
            ${
              query.active
                ? html`<span class="log-status"
                    >${Object.keys(query.filter).length > 0 ? 'Filtered' : 'Older attempts'}</span
                  >`
                : // Shown by the page's script, which does the updating: without it the page cannot keep the claim.
                  html`<span class="log-status" data-live-status hidden
                    ><span class="live-dot" aria-hidden="true"></span>Updates automatically</span
                  >`
            }
          </div>
          <div class="card-body">${logFilters(hook.id, query)}</div>
          ${live('log', parts.log)}
        </section>
        ${live('health', parts.health)}
        <div class="grid-2">
          ${live('settings', parts.settings)}
          <section class="card" aria-labelledby="preview-title">
            <div class="card-header">
              <div>
                <h2 id="preview-title">What your endpoint receives</h2>
                <p>
                  A <code>call_created</code> event, exactly as sent
                  (credentials${hook.signing ? ' and signature' : ''} masked).
                </p>
              </div>
            </div>
            <div class="card-body">${live('preview', parts.preview)}</div>
          </section>
        </div>
      </div>`,
  );
}
