import { deadlineText, time } from '../view/format';
import { hasInsecureCredentials, type EventKind, type HookView } from '@hookline/core';
import type { FieldErrors, HookFormValues } from '../hook-form-input';
import { html, trusted, type SafeHtml } from '../view/html';
import { authSchemeField, credentialFields } from './hook-form-auth-fields';
import { described, fieldError as error, radio } from './hook-form-parts';
import { headersField } from './hook-form-headers-field';
import { tlsField } from './hook-form-tls-field';
import { csrfField, layout, type Viewer } from '../view/layout';
import { filterField } from './hook-filter-field';

export interface HookFormPageInput {
  readonly values: HookFormValues;
  readonly errors: FieldErrors;
  /** HOOKLINE_DELIVERY_TIMEOUT_MS, as the help card tells it. */
  readonly deadlineMs: number;
  /** Present when editing: what is stored now (masked credentials). */
  readonly hook?: HookView;
  /** The kinds a hook can subscribe to, in catalogue order. */
  readonly kinds: readonly EventKind[];
  /** Editing: the version of the settings shown, sent back so a save made from an older form is refused. */
  readonly version?: number;
  /** The save was refused: the hook changed after the form was opened, and the form now shows it as it is. */
  readonly changedMeanwhile?: boolean;
}

// The page's script focuses it (as it does a refused form's first field): nothing here is a field to fix, and
// a screen reader then reads why nothing was saved.
function changedMeanwhileAlert(hook: HookView): SafeHtml {
  return html`<div class="alert alert-error" role="alert" tabindex="-1" data-changed-meanwhile data-refusal>
    <p>
      <strong>This hook was changed since you opened this form</strong> (last change:
      ${time(hook.updated_at)}), so nothing was saved. The form now shows the current settings: review them,
      make your change again and save.
    </p>
  </div>`;
}

function checkbox(
  name: string,
  value: string,
  checked: boolean,
  label: SafeHtml | string,
  note: string,
  invalid = false,
): SafeHtml {
  const id = `${name}-${value.replace(/[^a-z0-9_-]/gi, '-')}`;
  return html`<label class="choice" for="${id}">
    <input
      type="checkbox"
      id="${id}"
      name="${name}"
      value="${value}"
      ${checked ? trusted('checked') : ''}
      ${invalid ? trusted('aria-invalid="true"') : ''}
    />
    <span>${label}<small>${note}</small></span>
  </label>`;
}

// "Every kind" is stored as such, so kinds the operator adds later reach the hook too. A refusal marks the boxes
// (a group cannot hold the focus, nor be invalid in ARIA): the page's script focuses the first one, and the
// group's description, read on entering it, says why.
function eventsField(values: HookFormValues, errors: FieldErrors, kinds: readonly EventKind[]): SafeHtml {
  const all = values.events === 'all';
  const invalid = errors.events !== undefined;
  return html`<fieldset class="field" aria-describedby="events-hint${invalid ? ' events-error' : ''}">
    <legend>Events</legend>
    <input type="hidden" name="events_signing_shown" value="1" />
    <input type="hidden" name="events_offered" value="${String(kinds.length)}" />
    <div class="choices choices-stack" data-kinds>
      ${checkbox('events_all', '1', all, 'Every kind of event', 'Also kinds added later', invalid)}
      ${kinds.map((kind) =>
        checkbox(
          'events',
          kind.name,
          all || (Array.isArray(values.events) && values.events.includes(kind.name)),
          html`<code>${kind.name}</code>`,
          kind.description ?? '',
          invalid,
        ),
      )}
    </div>
    <p class="hint" id="events-hint">Only events of the kinds ticked are sent to this hook.</p>
    ${error(errors, 'events')}
  </fieldset>`;
}

function signingField(values: HookFormValues, errors: FieldErrors, hook?: HookView): SafeHtml {
  const note = hook?.signing
    ? 'On. Untick to stop signing (the secret is then forgotten); rotate it on the hook page.'
    : 'We generate a secret and show it once, after saving.';
  return html`<fieldset class="field">
    <legend>Signatures</legend>
    <div class="choices">
      ${checkbox('signing', '1', values.signing, 'Sign every request', 'Standard Webhooks: webhook-signature')}
    </div>
    <p class="hint">${note}</p>
    ${error(errors, 'signing')}
  </fieldset>`;
}

// For someone who has never read the docs: what a hook does, next to the form that makes one.
const howItWorks = (deadlineMs: number) =>
  html`<aside class="card help" aria-labelledby="help-title">
    <div class="card-body">
      <h2 id="help-title">How delivery works</h2>
      <ul>
        <li>Every event is sent as an HTTP <code>POST</code> to your URL, one at a time and in order.</li>
        <li>
          Answer with any <strong>2xx</strong> status within <strong>${deadlineText(deadlineMs)}</strong>.
          Redirects are not followed.
        </li>
        <li>An event is sent <strong>once</strong>. A failed delivery is logged, never retried.</li>
        <li>
          If your endpoint keeps failing, the hook is <strong>suspended</strong>: new events are held until
          you re-enable it, then delivered or discarded, your choice.
        </li>
        <li>After saving, use <strong>Send test event</strong> to check your endpoint.</li>
      </ul>
    </div>
  </aside>`;

// The saved hook's insecure_credentials, for the form as typed.
const insecure = (values: HookFormValues) =>
  hasInsecureCredentials(values.url, { scheme: values.scheme, token_url: values.oauth2.token_url });

export function hookFormPage(
  viewer: Viewer,
  { values, errors, hook, deadlineMs, kinds, version, changedMeanwhile }: HookFormPageInput,
): SafeHtml {
  const editing = hook !== undefined;
  const title = editing ? 'Edit hook' : 'New hook';
  const action = editing ? `/hooks/${hook.id}/edit` : '/hooks';
  const count = Object.keys(errors).length;
  // An edit form is not filled in again from the browser's history (Back): values typed before a save, shown
  // under the newer version the page is loaded with, would undo changes saved since. It shows the hook as it is.
  // (`autocomplete="off"` on the form and the URL field is what stops Chromium and Firefox restoring them.)
  return layout(
    title,
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb">
            <a href="${editing ? `/hooks/${hook.id}` : '/'}">← ${editing ? 'Back to hook' : 'All hooks'}</a>
          </div>
          <h1>${title}</h1>
          <p class="sub">
            ${editing ? 'Changes apply to the next event delivered.' : 'Where should we send your events?'}
          </p>
        </div>
      </div>
      <div class="form-layout">
        <div class="card">
          <form
            class="card-body"
            method="post"
            action="${action}"
            novalidate
            data-hook-form
            ${editing ? trusted('autocomplete="off"') : ''}
          >
            ${csrfField(viewer.csrf)}
            ${version === undefined ? '' : html`<input type="hidden" name="version" value="${String(version)}" />`}
            ${editing && changedMeanwhile ? changedMeanwhileAlert(hook) : ''}
            ${
              count > 0
                ? html`<div class="alert alert-error" role="alert">
                    <p>Please correct the ${count === 1 ? 'field' : `${count} fields`} marked below.</p>
                  </div>`
                : ''
            }
            <div class="field">
              <label for="url">Endpoint URL</label>
              <input
                id="url"
                name="url"
                type="url"
                inputmode="url"
                autocomplete="${editing ? 'off' : 'url'}"
                spellcheck="false"
                required
                placeholder="https://example.com/webhooks/calls"
                value="${values.url}"
                ${described(errors, 'url', 'url-hint')}
              />
              <p class="hint" id="url-hint">We send a <code>POST</code> to this address for every event.</p>
              ${error(errors, 'url')}
            </div>
            <div class="field">
              <label for="description">Description <span class="muted">(optional)</span></label>
              <input
                id="description"
                name="description"
                type="text"
                maxlength="500"
                value="${values.description}"
                placeholder="e.g. CRM call log"
                ${described(errors, 'description')}
              />
              ${error(errors, 'description')}
            </div>
            <fieldset class="field">
              <legend>Payload format</legend>
              <div class="choices">
                ${radio('format', 'json', values.format === 'json', 'JSON', 'application/json')}
                ${radio('format', 'form', values.format === 'form', 'Form', 'x-www-form-urlencoded')}
              </div>
              ${error(errors, 'format')}
            </fieldset>
            ${authSchemeField(values, errors)} ${credentialFields(values, errors, hook)}
            ${eventsField(values, errors, kinds)} ${filterField(values.filter, errors.filter, kinds)}
            ${signingField(values, errors, hook)} ${headersField(values, errors)}
            ${tlsField(errors, hook, values.tls)}
            <div
              class="alert alert-warning"
              data-http-warning
              role="status"
              ${insecure(values) ? '' : trusted('hidden')}
            >
              <p>
                <strong>Credentials over plain HTTP.</strong> With an <code>http://</code> URL (the
                endpoint's, or an OAuth 2.0 token URL) the token, password or client secret travels
                unencrypted and can be read on the way. Use <code>https://</code> where it is supported.
              </p>
            </div>
            <div class="form-actions">
              <button class="btn btn-primary" type="submit">
                ${editing ? 'Save changes' : 'Create hook'}
              </button>
              <a class="btn btn-secondary" href="${editing ? `/hooks/${hook.id}` : '/'}">Cancel</a>
            </div>
          </form>
        </div>
        ${howItWorks(deadlineMs)}
      </div>`,
  );
}
