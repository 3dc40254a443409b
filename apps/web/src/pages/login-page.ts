import { html, trusted, type SafeHtml } from '../view/html';
import type { Brand } from '../view/brand';
import { bareLayout, csrfField, flashMessage } from '../view/layout';
import type { Flash } from '../session/session-store';

export interface LoginPageInput {
  readonly csrf: string;
  readonly email?: string;
  readonly next?: string;
  readonly error?: string;
  /** The fields the error is about (left empty): marked invalid, and the first of them focused. */
  readonly invalid?: readonly LoginField[];
  readonly flash?: Flash;
  readonly brand?: Brand;
}

export type LoginField = 'email' | 'password';

// The error describes each field; a field it is about is marked invalid (in the page's order), and the page opens
// on the first of them.
function errorAttributes(field: LoginField, error: string | undefined, invalid: readonly LoginField[]) {
  if (!error) return html``;
  return html`aria-describedby="login-error" ${invalid.includes(field) ? trusted('aria-invalid="true"') : ''}`;
}

export function loginPage({
  csrf,
  email,
  next,
  error,
  invalid = [],
  flash,
  brand,
}: LoginPageInput): SafeHtml {
  // Without script too, the page opens on the first field to fix.
  const focusFirst: LoginField = invalid[0] ?? 'email';
  return bareLayout(
    'Sign in',
    html`<div class="card">
        <div class="card-body">
          <h1>Sign in</h1>
          <p class="muted">Use the email and password of your account.</p>
          ${flashMessage(flash)}
          ${error ? html`<div class="alert alert-error" role="alert" id="login-error"><p>${error}</p></div>` : ''}
          <form method="post" action="/login" novalidate>
            ${csrfField(csrf)} ${next ? html`<input type="hidden" name="next" value="${next}" />` : ''}
            <div class="field">
              <label for="email">Email</label>
              <input
                id="email"
                name="email"
                type="email"
                autocomplete="username"
                required
                ${focusFirst === 'email' ? trusted('autofocus') : ''}
                value="${email ?? ''}"
                ${errorAttributes('email', error, invalid)}
              />
            </div>
            <div class="field">
              <label for="password">Password</label>
              <input
                id="password"
                name="password"
                type="password"
                autocomplete="current-password"
                required
                ${focusFirst === 'password' ? trusted('autofocus') : ''}
                ${errorAttributes('password', error, invalid)}
              />
            </div>
            <button class="btn btn-primary" type="submit">Sign in</button>
          </form>
        </div>
      </div>
      <p class="muted center">No account yet? Ask your phone system provider: they create it for you.</p>`,
    brand,
  );
}

/**
 * The sign-in page inside another site's iframe. A password session's cookie is `SameSite=Lax`, which a
 * browser never sends to a frame on another site, so a sign-in there could never hold: the page says so and
 * offers the ways that work instead of a form that would be refused.
 */
export function framedLoginPage(brand: Brand | undefined): SafeHtml {
  return bareLayout(
    'Sign in',
    html`<div class="card" data-framed-login>
      <div class="card-body">
        <h1>Sign in</h1>
        <p>
          Signing in with a password does not work inside another site's page: your browser does not keep a
          sign-in made here.
        </p>
        <p>
          Open this page again from your provider's site, or
          <a href="/login" target="_blank" rel="noopener">sign in in a new tab</a>.
        </p>
      </div>
    </div>`,
    brand,
  );
}
