import type { HookView } from '@hookline/core';
import type { FieldErrors } from '../hook-form-errors';
import type { HookFormValues } from '../hook-form-input';
import { html, trusted, type SafeHtml } from '../view/html';
import { described, fieldError as error, radio } from './hook-form-parts';

// The hook form's authentication: the scheme, then only the chosen scheme's fields (the stylesheet hides the
// others). Credentials are write-only (product.md §4): a secret field starts empty, and what is stored is
// told as the scheme and the last 4 characters at most — a Basic username is not shown either.

export function authSchemeField(values: HookFormValues, errors: FieldErrors): SafeHtml {
  return html`<fieldset class="field">
    <legend>Authentication</legend>
    <div class="choices">
      ${radio('auth_scheme', 'none', values.scheme === 'none', 'None', 'No Authorization header')}
      ${radio('auth_scheme', 'bearer', values.scheme === 'bearer', 'Bearer token', 'Authorization: Bearer …')}
      ${radio('auth_scheme', 'basic', values.scheme === 'basic', 'Basic', 'Username and password')}
      ${radio('auth_scheme', 'oauth2', values.scheme === 'oauth2', 'OAuth 2.0', 'Client credentials')}
    </div>
    ${error(errors, 'auth_scheme')}
  </fieldset>`;
}

function storedSecretNote(hook: HookView | undefined, scheme: 'bearer' | 'basic' | 'oauth2'): string {
  const auth = hook?.auth;
  if (!auth || auth.scheme !== scheme) return '';
  const last4 =
    auth.scheme === 'bearer'
      ? auth.token_last4
      : auth.scheme === 'basic'
        ? auth.password_last4
        : auth.scheme === 'oauth2'
          ? auth.client_secret_last4
          : '';
  return `Saved: ••••${last4}. Leave empty to keep it, or type a new one to replace it.`;
}

function secretInput(name: string, errors: FieldErrors, saved: string, hintText: SafeHtml): SafeHtml {
  const field = name as keyof FieldErrors;
  return html`<input
      id="${name}"
      name="${name}"
      type="password"
      autocomplete="new-password"
      spellcheck="false"
      placeholder="${saved ? '••••••••' : ''}"
      ${described(errors, field, `${name}-hint`)}
    />
    <p class="hint" id="${name}-hint">${hintText} ${saved || 'Shown masked after saving.'}</p>
    ${error(errors, field)}`;
}

function textInput(
  name: keyof FieldErrors,
  label: SafeHtml | string,
  value: string,
  errors: FieldErrors,
  options: { type?: string; hint?: SafeHtml | string; placeholder?: string } = {},
): SafeHtml {
  return html`<div class="field">
    <label for="${name}">${label}</label>
    <input
      id="${name}"
      name="${name}"
      type="${options.type ?? 'text'}"
      autocomplete="off"
      spellcheck="false"
      value="${value}"
      placeholder="${options.placeholder ?? ''}"
      ${described(errors, name, options.hint ? `${name}-hint` : undefined)}
    />
    ${options.hint ? html`<p class="hint" id="${name}-hint">${options.hint}</p>` : ''} ${error(errors, name)}
  </div>`;
}

function oauth2Fields(values: HookFormValues, errors: FieldErrors, hook?: HookView): SafeHtml {
  const o = values.oauth2;
  const optional = html`<span class="muted">(optional)</span>`;
  return html`<fieldset class="subfields" data-scheme-fields="oauth2">
    <legend>OAuth 2.0 client credentials</legend>
    ${textInput('oauth2_token_url', 'Token URL', o.token_url, errors, {
      type: 'url',
      placeholder: 'https://auth.example.com/oauth/token',
      hint: html`We ask this URL for a token (client credentials grant) and send it as
        <code>Authorization: Bearer &lt;token&gt;</code>, keeping it until shortly before it expires.`,
    })}
    ${textInput('oauth2_client_id', 'Client ID', o.client_id, errors)}
    <div class="field">
      <label for="oauth2_client_secret">Client secret</label>
      ${secretInput('oauth2_client_secret', errors, storedSecretNote(hook, 'oauth2'), html``)}
    </div>
    ${textInput('oauth2_scope', html`Scope ${optional}`, o.scope, errors, { placeholder: 'e.g. webhooks.write' })}
    ${textInput('oauth2_audience', html`Audience ${optional}`, o.audience, errors)}
    <fieldset class="field">
      <legend>How we send the client secret</legend>
      <div class="choices">
        ${radio('oauth2_client_auth', 'basic', o.client_auth === 'basic', 'HTTP Basic', 'In an Authorization header')}
        ${radio('oauth2_client_auth', 'post', o.client_auth === 'post', 'In the form body', 'As form fields')}
      </div>
      <p class="hint">
        What your token endpoint expects: <code>client_secret_basic</code> (the usual) or
        <code>client_secret_post</code>.
      </p>
      ${error(errors, 'oauth2_client_auth')}
    </fieldset>
  </fieldset>`;
}

export function credentialFields(values: HookFormValues, errors: FieldErrors, hook?: HookView): SafeHtml {
  const basicStored = hook?.auth.scheme === 'basic';
  return html`<fieldset class="subfields" data-scheme-fields="bearer">
      <legend>Bearer token</legend>
      <div class="field">
        <label for="bearer_token">Token</label>
        ${secretInput(
          'bearer_token',
          errors,
          storedSecretNote(hook, 'bearer'),
          html`Sent as <code>Authorization: Bearer &lt;token&gt;</code>.`,
        )}
      </div>
    </fieldset>
    <fieldset class="subfields" data-scheme-fields="basic">
      <legend>Basic authentication</legend>
      ${textInput('basic_username', 'Username', values.username, errors, {
        ...(basicStored
          ? {
              placeholder: '••••••••',
              hint: 'Saved, and not shown. Leave empty to keep it, or type a new one with the password.',
            }
          : {}),
      })}
      <div class="field">
        <label for="basic_password">Password</label>
        ${secretInput('basic_password', errors, storedSecretNote(hook, 'basic'), html``)}
      </div>
      <label class="choice" for="basic_no_password">
        <input
          type="checkbox"
          id="basic_no_password"
          name="basic_no_password"
          value="1"
          ${values.noPassword ? trusted('checked') : ''}
        />
        <span
          >No password<small>For a receiver that reads the username alone, such as an API key</small></span
        >
      </label>
    </fieldset>
    ${oauth2Fields(values, errors, hook)}`;
}
