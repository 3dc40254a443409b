import { plainWords, type DeliveryRecord, type HookView } from '@hookline/core';
import { DEFAULT_ZONE, localInputValue, zoneField, zoneName } from '../view/zone';
import { html, type SafeHtml } from '../view/html';
import { errorText, attemptBadge, plural, time } from '../view/format';
import { csrfField } from '../view/layout';
import { changeControl, type ChangeRights } from '../view/read-only';
import { suspensionRuleText, type SuspensionRule } from './suspension-rule';

export interface Suspension {
  readonly hook: HookView;
  readonly failures: readonly DeliveryRecord[];
  /** The failures are the streak's latest only (it had more than the banner keeps). */
  readonly latestOnly?: boolean;
  readonly held: number;
  /** Who reads it: a read-only session is told why and what is held, and offered no re-enable. */
  readonly who: ChangeRights;
  /** Paused by an admin in Bull Board: only an admin resumes it, so no re-enable is offered. */
  readonly byAdmin?: boolean;
  /** The settings that suspended it, said in words under the reason. */
  readonly rule?: SuspensionRule;
}

/**
 * An admin's pause: the reason they gave, and that only they can lift it (the server refuses a customer's
 * re-enable, so none is offered).
 */
function adminPauseBanner({ hook, held }: Suspension): SafeHtml {
  const given = /^paused by admin:\s*(.+)$/s.exec(hook.suspended_reason ?? '')?.[1];
  return html`<section
    class="banner-suspended"
    role="alert"
    aria-labelledby="suspended-title"
    data-suspension-banner
  >
    <h2 id="suspended-title">An administrator paused deliveries to this hook</h2>
    <p>
      ${given ? html`The reason given: “${given}”.` : 'No reason was given.'}
      ${hook.suspended_at ? html`Paused ${time(hook.suspended_at)}.` : ''}
    </p>
    <p>
      Nothing is sent to this endpoint until an administrator resumes it; you cannot resume it yourself.
      <strong
        >${held === 0 ? 'No events are held.' : `${plural(held, 'held event')} ${held === 1 ? 'is' : 'are'} waiting`}</strong
      >${held === 0 ? '' : ' and will be delivered, in order, when it is resumed.'} Ask your provider’s
      support if you need it resumed.
    </p>
  </section>`;
}

const sentence = (text: string) => {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
};

function failure(record: DeliveryRecord): SafeHtml {
  return html`<li>
    ${time(record.attempted_at)} ${attemptBadge(record)}
    ${record.status_code !== undefined ? html`<span>HTTP ${record.status_code}</span>` : ''}
    ${record.error ? html`<span class="muted">${errorText(record.error)}</span>` : ''}
  </li>`;
}

// The form carries what the page showed (which suspension, how many events held), so the server can refuse a
// choice made on a page that has gone stale: events held since it loaded must not be delivered (or dropped)
// by a button that did not mention them.
function enableForm(
  page: { hook: HookView; held: number; csrf: string },
  held: 'deliver' | 'discard' | 'since',
  button: SafeHtml,
  confirm?: string,
  fields: SafeHtml | string = '',
) {
  return html`<form
    method="post"
    action="/hooks/${page.hook.id}/enable"
    ${confirm ? html`data-confirm="${confirm}"` : ''}
  >
    ${csrfField(page.csrf)}
    <input type="hidden" name="held" value="${held}" />
    <input type="hidden" name="seen_suspended_at" value="${page.hook.suspended_at ?? ''}" />
    <input type="hidden" name="seen_held" value="${String(page.held)}" />
    ${fields} ${button}
  </form>`;
}

/**
 * Deliver only what is recent enough to matter: events accepted before the chosen time are discarded. The
 * default is the moment of the suspension (everything held since then), in the page's zone (the script puts it
 * into the browser's, as every time on the page).
 */
function sinceForm(page: { hook: HookView; held: number; csrf: string }): SafeHtml {
  const id = `since-${page.hook.id}`;
  const at = new Date(page.hook.suspended_at ?? Date.now());
  return enableForm(
    page,
    'since',
    html`<button class="btn btn-secondary" type="submit">Re-enable, discarding older events</button>`,
    undefined,
    html`<label for="${id}">Deliver only events accepted since (${zoneName()})</label>
      <input
        id="${id}"
        type="datetime-local"
        name="since"
        step="1"
        value="${localInputValue(at, DEFAULT_ZONE)}"
        data-instant="${at.toISOString()}"
        required
      />
      ${zoneField()}`,
  );
}

/** The ways to start the hook again, for a visitor who may. */
function reenableChoices(hook: HookView, held: number, csrf: string): SafeHtml {
  const heldText = plural(held, 'held event');
  const page = { hook, held, csrf };
  // The default: a test event first, so a hook is not re-enabled onto an endpoint that is still down.
  const testFirst = enableForm(
    page,
    'deliver',
    html`<button class="btn btn-primary" type="submit">
      Test &amp; re-enable${held === 0 ? '' : html` (then deliver the ${heldText})`}
    </button>`,
    undefined,
    html`<input type="hidden" name="probe" value="1" />`,
  );
  const actions =
    held === 0
      ? html`${testFirst}
        ${enableForm(
          page,
          'deliver',
          html`<button class="btn btn-secondary" type="submit">Re-enable deliveries</button>`,
        )}`
      : html`${testFirst}
        ${enableForm(
          page,
          'deliver',
          html`<button class="btn btn-secondary" type="submit">
            Re-enable and deliver the ${heldText}
          </button>`,
        )}
        ${enableForm(
          page,
          'discard',
          html`<button class="btn btn-danger-outline" type="submit">Re-enable and discard them</button>`,
          `Discard ${heldText}? They will never be delivered.`,
        )}
        ${sinceForm(page)}`;
  return html`<div class="reenable">${actions}</div>`;
}

/** Impossible to miss: why the hook stopped, what failed, and the two ways to start it again. */
export function suspensionBanner(suspension: Suspension): SafeHtml {
  if (suspension.byAdmin) return adminPauseBanner(suspension);
  const { hook, failures, held, who } = suspension;
  const heldText = plural(held, 'held event');
  return html`<section
    class="banner-suspended"
    role="alert"
    aria-labelledby="suspended-title"
    data-suspension-banner
  >
    <h2 id="suspended-title">Deliveries to this hook are suspended</h2>
    <p>
      ${sentence(plainWords(hook.suspended_reason ?? 'the endpoint kept failing'))}
      ${hook.suspended_at ? html`Suspended ${time(hook.suspended_at)}.` : ''}
    </p>
    <p>
      Nothing is sent to this endpoint until ${who.readOnly ? 'it is re-enabled' : 'you re-enable it'}.
      <strong
        >${held === 0 ? 'No events are held.' : `${heldText} ${held === 1 ? 'is' : 'are'} waiting.`}</strong
      >
    </p>
    ${changeControl(who, (csrf) => reenableChoices(hook, held, csrf))}
    ${
      // After the choices, which come first on a phone: why the hook stopped, in the configured numbers.
      suspension.rule
        ? html`<p class="muted rule-note" data-suspension-rule>${suspensionRuleText(suspension.rule)}</p>`
        : ''
    }
    ${
      failures.length > 0
        ? html`<h3 class="visually-hidden">Failures that caused the suspension</h3>
            <p class="muted">
              ${
                suspension.latestOnly
                  ? `The last ${failures.length} failures of the run that caused it:`
                  : 'The failures that caused it:'
              }
            </p>
            <ul class="failures">
              ${failures.map(failure)}
            </ul>`
        : ''
    }
  </section>`;
}
