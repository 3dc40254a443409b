import { html, type SafeHtml } from '../view/html';
import type { Brand } from '../view/brand';
import { bareLayout, csrfField, flashMessage } from '../view/layout';
import type { Flash } from '../session/session-store';

export interface LoginPageInput {
  readonly csrf: string;
  readonly email?: string;
  readonly next?: string;
  readonly error?: string;
  readonly flash?: Flash;
  readonly brand?: Brand;
}

export function loginPage({ csrf, email, next, error, flash, brand }: LoginPageInput): SafeHtml {
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
                autofocus
                value="${email ?? ''}"
                ${error ? html`aria-describedby="login-error"` : ''}
              />
            </div>
            <div class="field">
              <label for="password">Password</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required />
            </div>
            <button class="btn btn-primary" type="submit">Sign in</button>
          </form>
        </div>
      </div>
      <p class="muted center">No account yet? Ask your phone system provider: they create it for you.</p>`,
    brand,
  );
}
