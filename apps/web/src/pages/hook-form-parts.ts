import type { FieldErrors, HookFormField } from '../hook-form-errors';
import { html, trusted, type SafeHtml } from '../view/html';

// Small pieces every field of the hook form is drawn with: an error beside its field, the ARIA that ties the
// two together for screen readers, and a radio choice.

export function fieldError(errors: FieldErrors, field: HookFormField): SafeHtml {
  const message = errors[field];
  return message ? html`<p class="field-error" id="${field}-error">${message}</p>` : html``;
}

// aria-invalid and aria-describedby tie an error to its field for screen readers.
export function described(errors: FieldErrors, field: HookFormField, hint?: string): SafeHtml {
  const ids = [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return html`${errors[field] ? trusted('aria-invalid="true"') : ''}
  ${ids ? html`aria-describedby="${ids}"` : ''}`;
}

export function radio(name: string, value: string, checked: boolean, label: string, note: string): SafeHtml {
  const id = `${name}-${value}`;
  return html`<label class="choice" for="${id}">
    <input type="radio" id="${id}" name="${name}" value="${value}" ${checked ? trusted('checked') : ''} />
    <span>${label}<small>${note}</small></span>
  </label>`;
}
