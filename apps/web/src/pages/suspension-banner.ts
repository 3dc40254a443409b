import type { DeliveryRecord, HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { outcomeBadge, plural, time } from '../view/format';
import { csrfField } from '../view/layout';

export interface Suspension {
  readonly hook: HookView;
  readonly failures: readonly DeliveryRecord[];
  readonly held: number;
  readonly csrf: string;
}

const sentence = (text: string) => {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
};

function failure(record: DeliveryRecord): SafeHtml {
  return html`<li>
    ${time(record.attempted_at)} ${outcomeBadge(record.outcome)}
    ${record.status_code !== undefined ? html`<span>HTTP ${record.status_code}</span>` : ''}
    ${record.error ? html`<span class="muted">${record.error}</span>` : ''}
  </li>`;
}

function enableForm(
  hookId: string,
  csrf: string,
  held: 'deliver' | 'discard',
  button: SafeHtml,
  confirm?: string,
) {
  return html`<form
    method="post"
    action="/hooks/${hookId}/enable"
    ${confirm ? html`data-confirm="${confirm}"` : ''}
  >
    ${csrfField(csrf)}
    <input type="hidden" name="held" value="${held}" />
    ${button}
  </form>`;
}

/** Impossible to miss: why the hook stopped, what failed, and the two ways to start it again. */
export function suspensionBanner({ hook, failures, held, csrf }: Suspension): SafeHtml {
  const heldText = plural(held, 'held event');
  const actions =
    held === 0
      ? enableForm(
          hook.id,
          csrf,
          'deliver',
          html`<button class="btn btn-primary" type="submit">Re-enable deliveries</button>`,
        )
      : html`${enableForm(
          hook.id,
          csrf,
          'deliver',
          html`<button class="btn btn-primary" type="submit">Re-enable and deliver the ${heldText}</button>`,
        )}
        ${enableForm(
          hook.id,
          csrf,
          'discard',
          html`<button class="btn btn-danger-outline" type="submit">Re-enable and discard them</button>`,
          `Discard ${heldText}? They will never be delivered.`,
        )}`;
  return html`<section
    class="banner-suspended"
    role="alert"
    aria-labelledby="suspended-title"
    data-suspension-banner
  >
    <h2 id="suspended-title">Deliveries to this hook are suspended</h2>
    <p>
      ${sentence(hook.suspended_reason ?? 'the endpoint kept failing')}
      ${hook.suspended_at ? html`Suspended ${time(hook.suspended_at)}.` : ''}
    </p>
    <p>
      Nothing is sent to this endpoint until you re-enable it.
      <strong
        >${held === 0 ? 'No events are held.' : `${heldText} ${held === 1 ? 'is' : 'are'} waiting.`}</strong
      >
    </p>
    ${
      failures.length > 0
        ? html`<h3 class="visually-hidden">Failures that caused the suspension</h3>
            <p class="muted">The failures that caused it:</p>
            <ul class="failures">
              ${failures.map(failure)}
            </ul>`
        : ''
    }
    <div class="reenable">${actions}</div>
  </section>`;
}
