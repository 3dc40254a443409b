import type { DeliveryRecord, HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { ago, authSummary, outcomeBadge, plural, stateBadge, time } from '../view/format';
import { layout, type Viewer } from '../view/layout';
import { searchBox } from './search-page';

export interface HookSummary {
  readonly hook: HookView;
  readonly lastDelivery?: DeliveryRecord;
}

function lastDelivery(record: DeliveryRecord | undefined, now: Date): SafeHtml {
  if (!record) return html`<span>No deliveries yet</span>`;
  return html`<span>Last delivery ${outcomeBadge(record.outcome)}</span>
    <span title="${record.attempted_at}">${ago(record.attempted_at, now)}</span>`;
}

function hookRow({ hook, lastDelivery: last }: HookSummary, now: Date): SafeHtml {
  return html`<li class="hook-row" data-hook-id="${hook.id}">
    <div>
      ${
        hook.description
          ? html`<a class="hook-link" href="/hooks/${hook.id}">${hook.description}</a>
              <div class="muted url">${hook.url}</div>`
          : html`<a class="hook-link url" href="/hooks/${hook.id}">${hook.url}</a>`
      }
      <div class="hook-meta">
        ${stateBadge(hook.state, hook.health)} <span>${hook.format === 'json' ? 'JSON' : 'Form'}</span>
        <span>${authSummary(hook.auth)}</span>
        ${hook.suspended_at ? html`<span>Suspended ${time(hook.suspended_at)}</span>` : ''}
      </div>
    </div>
    <div class="hook-side">${lastDelivery(last, now)}</div>
  </li>`;
}

const emptyState = html`<div class="card empty">
  <h2>No hooks yet</h2>
  <p>A hook sends your phone system's events, such as <code>call_created</code>, to a URL you choose.</p>
  <a class="btn btn-primary" href="/hooks/new">Create your first hook</a>
</div>`;

export function hooksPage(viewer: Viewer, hooks: readonly HookSummary[], now: Date): SafeHtml {
  const suspended = hooks.filter((h) => h.hook.state === 'suspended').length;
  return layout(
    'Hooks',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <h1>Hooks</h1>
          <p class="sub">Endpoints that receive your events, one at a time and in order.</p>
        </div>
        <div class="actions"><a class="btn btn-primary" href="/hooks/new">New hook</a></div>
      </div>
      ${
        suspended > 0
          ? html`<div class="alert alert-error" role="alert">
              <p>
                <strong>${plural(suspended, 'hook is', 'hooks are')} suspended.</strong> Events for
                ${suspended === 1 ? 'it are' : 'them are'} held until you re-enable
                ${suspended === 1 ? 'it' : 'them'} on the hook's page.
              </p>
            </div>`
          : ''
      }
      ${
        hooks.length === 0
          ? emptyState
          : html`<section class="card" aria-label="Search">
                <div class="card-body">${searchBox()}</div>
              </section>
              <section class="card" aria-label="Your hooks">
                <ul class="hook-list">
                  ${hooks.map((h) => hookRow(h, now))}
                </ul>
              </section>`
      }`,
  );
}
