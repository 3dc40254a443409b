import { MAX_HOOK_HEADERS } from '@hookline/core';
import { HEADERS_FIELD, HEADERS_SHOWN } from '../hook-form-headers';
import type { FieldErrors, HookFormValues } from '../hook-form-input';
import { html, trusted, type SafeHtml } from '../view/html';

/** The extra headers: `Name: value` per line, sent on every request and shown in the preview as sent. */
export function headersField(values: HookFormValues, errors: FieldErrors): SafeHtml {
  const message = errors.headers;
  const describedBy = ['headers-hint', message ? 'headers-error' : undefined].filter(Boolean).join(' ');
  return html`<div class="field">
    <input type="hidden" name="${HEADERS_SHOWN}" value="1" />
    <label for="headers">Extra headers <span class="muted">(optional)</span></label>
    <textarea
      id="headers"
      name="${HEADERS_FIELD}"
      rows="3"
      spellcheck="false"
      placeholder="X-Api-Key: k_123"
      ${message ? trusted('aria-invalid="true"') : ''}
      aria-describedby="${describedBy}"
    >
${values.headers}</textarea>
    <p class="hint" id="headers-hint">
      One <code>Name: value</code> per line, at most ${String(MAX_HOOK_HEADERS)}, sent with every request. Not
      for secrets: they are shown on this page and in the delivery log. Authorization, Content-Type, Host, the
      event-type header and the signature headers cannot be set here.
    </p>
    ${message ? html`<p class="field-error" id="headers-error">${message}</p>` : ''}
  </div>`;
}
