import { html, trusted, type SafeHtml } from '../view/html';
import { time } from '../view/format';
import { csrfField, layout, type Viewer } from '../view/layout';
import { changeControl } from '../view/read-only';

export type PasswordField = 'current_password' | 'new_password' | 'confirm_password';
export type PasswordErrors = Partial<Record<PasswordField, string>>;

function passwordField(id: PasswordField, label: string, errors: PasswordErrors, hint?: string): SafeHtml {
  const message = errors[id];
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      id="${id}"
      name="${id}"
      type="password"
      required
      autocomplete="${id === 'current_password' ? 'current-password' : 'new-password'}"
      ${message ? trusted('aria-invalid="true"') : ''}
      ${describedBy ? html`aria-describedby="${describedBy}"` : ''}
    />
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
    ${message ? html`<p class="field-error" id="${id}-error">${message}</p>` : ''}
  </div>`;
}

// An account made by the operator's API without a password is opened by sign-in links from the operator's site
// only: no password form is offered that could never be filled in right.
const NO_PASSWORD = html`<section class="card" aria-labelledby="password-title">
  <div class="card-header"><h2 id="password-title">Password</h2></div>
  <div class="card-body" data-no-password>
    <p>This account has no password: you open it from your provider's site.</p>
  </div>
</section>`;

export function accountPage(
  viewer: Viewer,
  errors: PasswordErrors = {},
  minLength = 10,
  hasPassword = true,
): SafeHtml {
  const { account } = viewer;
  return layout(
    'Account',
    viewer,
    'account',
    html`<div class="page-header">
        <div>
          <h1>Account</h1>
          <p class="sub">Your sign-in details.</p>
        </div>
      </div>
      <div class="grid-2">
        <section class="card" aria-labelledby="account-title">
          <div class="card-header"><h2 id="account-title">Details</h2></div>
          <div class="card-body">
            <dl class="kv">
              <dt>Name</dt>
              <dd>${account.name}</dd>
              <dt>Email</dt>
              <dd>${account.email ?? html`<span class="muted">None</span>`}</dd>
              <dt>Account ID</dt>
              <dd class="mono">${account.id}</dd>
              <dt>Created</dt>
              <dd>${time(account.created_at)}</dd>
            </dl>
          </div>
        </section>
        ${
          !hasPassword
            ? NO_PASSWORD
            : changeControl(
                viewer,
                (csrf) =>
                  html`<section class="card" aria-labelledby="password-title">
                    <div class="card-header"><h2 id="password-title">Change password</h2></div>
                    <form class="card-body" method="post" action="/account/password" novalidate>
                      ${csrfField(csrf)} ${passwordField('current_password', 'Current password', errors)}
                      ${passwordField('new_password', 'New password', errors, `At least ${minLength} characters.`)}
                      ${passwordField('confirm_password', 'Repeat the new password', errors)}
                      <button class="btn btn-primary" type="submit">Change password</button>
                    </form>
                  </section>`,
                html`<section class="card" aria-labelledby="password-title">
                  <div class="card-header"><h2 id="password-title">Password</h2></div>
                  <div class="card-body">
                    <p>This view can only look, so the password cannot be changed here.</p>
                  </div>
                </section>`,
              )
        }
      </div>`,
  );
}
