import type { HookView } from '@hookline/core';
import { TLS_FORM } from '../hook-form-tls';
import type { FieldErrors, HookFormValues } from '../hook-form-input';
import { html, trusted, type SafeHtml } from '../view/html';
import { time } from '../view/format';

function pemArea(
  name: string,
  label: string,
  hint: string,
  message: string | undefined,
  value = '',
): SafeHtml {
  const describedBy = [`${name}-hint`, message ? `${name}-error` : undefined].filter(Boolean).join(' ');
  return html`<label for="${name}">${label}</label>
    <textarea
      id="${name}"
      name="${name}"
      rows="3"
      spellcheck="false"
      autocomplete="off"
      ${message ? trusted('aria-invalid="true"') : ''}
      aria-describedby="${describedBy}"
    >
${value}</textarea>
    <p class="hint" id="${name}-hint">${hint}</p>
    ${message ? html`<p class="field-error" id="${name}-error">${message}</p>` : ''}`;
}

/**
 * Client certificate (mutual TLS): PEM fields that start empty (the key is write-only), what is stored shown
 * beside them, and on the edit form a box to stop presenting one.
 */
export function tlsField(
  errors: FieldErrors,
  hook: HookView | undefined,
  typed: HookFormValues['tls'] = undefined,
): SafeHtml {
  const stored = hook?.tls;
  return html`<fieldset class="field">
    <legend>Client certificate <span class="muted">(optional, mutual TLS)</span></legend>
    <input type="hidden" name="${TLS_FORM.shown}" value="1" />
    ${
      stored
        ? html`<p class="hint" data-tls-stored>
            Saved: ${stored.subject}, valid until ${time(stored.expires_at)}. Leave the fields empty to keep
            it.
          </p>`
        : ''
    }
    ${pemArea(
      TLS_FORM.cert,
      'Certificate (PEM)',
      'Presented to your endpoint when it asks for one.',
      errors.tls_cert,
      typed?.cert,
    )}
    ${pemArea(
      TLS_FORM.key,
      'Private key (PEM)',
      'Unencrypted. Stored encrypted and never shown again.',
      errors.tls_key,
    )}
    ${pemArea(
      TLS_FORM.ca,
      'CA certificate (PEM, optional)',
      "Your endpoint's private CA: then only it is trusted for your endpoint's certificate.",
      errors.tls_ca,
      typed?.ca,
    )}
    ${
      stored
        ? html`<label class="choice" for="${TLS_FORM.remove}">
            <input type="checkbox" id="${TLS_FORM.remove}" name="${TLS_FORM.remove}" value="1" />
            <span>Remove the client certificate<small>Requests go without one</small></span>
          </label>`
        : ''
    }
  </fieldset>`;
}
