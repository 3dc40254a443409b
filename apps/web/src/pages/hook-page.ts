import type { DeliveryRecord, HookEvents, HookView } from '@hookline/core';
import type { HookHealth } from '@hookline/history';
import { html, type SafeHtml } from '../view/html';
import { authSummary, formatLabel, stateBadge, time } from '../view/format';
import { csrfField, layout, type Viewer } from '../view/layout';
import { deliveryLog } from './delivery-log';
import { certificateExpiryBanner } from './certificate-expiry-banner';
import { egressWaitBanner } from './egress-wait-banner';
import { healthCard } from './health-card';
import { logFilters, type LogQuery } from './log-filters';
import { requestPreview, type PreviewOptions } from './request-preview';
import { suspensionBanner } from './suspension-banner';

export interface HookPageInput {
  readonly hook: HookView;
  readonly deliveries: readonly DeliveryRecord[];
  /** Only for a suspended hook: the failures that caused it and how many events are held. */
  readonly suspension?: { readonly failures: readonly DeliveryRecord[]; readonly held: number };
  readonly preview: PreviewOptions;
  /** The log's filters and page; a filtered or paged log is not refreshed by itself. */
  readonly query: LogQuery;
  /** The cursor of the next (older) page, when there is one. */
  readonly next?: string;
  readonly health: HookHealth;
}

function olderLink(hookId: string, q: LogQuery, next: string | undefined): SafeHtml | string {
  if (!next) return '';
  const params = new URLSearchParams({
    ...Object.fromEntries(Object.entries(q.values).filter(([, v]) => v)),
    cursor: next,
  });
  return html`<div class="card-body log-more">
    <a href="/hooks/${hookId}?${params.toString()}">Older →</a>
  </div>`;
}

const REFRESH_MS = 3000;

const eventsSummary = (events: HookEvents): SafeHtml =>
  events === 'all'
    ? html`Every kind <span class="muted">(also kinds added later)</span>`
    : html`${events.map((name, i) => html`${i > 0 ? ', ' : ''}<code>${name}</code>`)}`;

function signingSummary(hook: HookView, csrf: string): SafeHtml {
  if (!hook.signing) return html`<span class="muted">Off</span>`;
  return html`On (Standard Webhooks)
    ${
      hook.signing_previous_expires_at
        ? html`<span class="muted"
            >· previous secret also signs until ${time(hook.signing_previous_expires_at)}</span
          >`
        : ''
    }
    <form
      method="post"
      action="/hooks/${hook.id}/signing-secret/rotate"
      class="inline-form"
      data-confirm="Make a new signing secret? Both secrets sign for the next 24 hours; then only the new one."
    >
      ${csrfField(csrf)}
      <button class="btn btn-secondary btn-small" type="submit">Rotate secret</button>
    </form>`;
}

function settings(hook: HookView, csrf: string): SafeHtml {
  return html`<section class="card" aria-labelledby="settings-title">
    <div class="card-header">
      <h2 id="settings-title">Settings</h2>
      <a href="/hooks/${hook.id}/edit">Edit</a>
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
        <dd data-hook-signing>${signingSummary(hook, csrf)}</dd>
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

export function hookPage(
  viewer: Viewer,
  { hook, deliveries, suspension, preview, query, next, health }: HookPageInput,
): SafeHtml {
  return layout(
    hook.description ?? 'Hook',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb"><a href="/">← All hooks</a></div>
          <div class="title-row">
            <h1>${hook.description ?? 'Hook'}</h1>
            <span data-hook-state="${hook.state}">${stateBadge(hook.state, hook.health)}</span>
          </div>
          <p class="sub url">${hook.url}</p>
        </div>
        <div class="actions">
          <form method="post" action="/hooks/${hook.id}/test">
            ${csrfField(viewer.csrf)}
            <button class="btn btn-primary" type="submit">Send test event</button>
          </form>
          <a class="btn btn-secondary" href="/hooks/${hook.id}/edit">Edit</a>
          <a class="btn btn-danger-outline" href="/hooks/${hook.id}/delete">Delete</a>
        </div>
      </div>
      <div class="stack">
        ${
          hook.state === 'suspended'
            ? suspensionBanner({
                hook,
                failures: suspension?.failures ?? [],
                held: suspension?.held ?? 0,
                csrf: viewer.csrf,
              })
            : ''
        }
        ${egressWaitBanner(hook)} ${certificateExpiryBanner(hook)}
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
                ? html`<span class="log-status">Filtered</span>`
                : html`<span class="log-status"
                    ><span class="live-dot" aria-hidden="true"></span>Updates automatically</span
                  >`
            }
          </div>
          <div class="card-body">${logFilters(hook.id, query)}</div>
          ${
            query.active
              ? html`<div id="delivery-log" data-state="${hook.state}">
                  ${deliveryLog(deliveries, hook.id)}
                </div>`
              : html`<div
                  id="delivery-log"
                  data-refresh-url="/hooks/${hook.id}/deliveries"
                  data-refresh-every="${REFRESH_MS}"
                  data-state="${hook.state}"
                >
                  ${deliveryLog(deliveries, hook.id)}
                </div>`
          }
          ${olderLink(hook.id, query, next)}
        </section>
        ${healthCard(hook.id, health)}
        <div class="grid-2">
          ${settings(hook, viewer.csrf)}
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
            <div class="card-body">${requestPreview(hook, preview)}</div>
          </section>
        </div>
      </div>`,
  );
}
