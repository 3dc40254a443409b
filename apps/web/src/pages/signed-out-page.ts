import { html, type SafeHtml } from '../view/html';
import type { Brand } from '../view/brand';
import { bareLayout } from '../view/layout';

/**
 * Where a sign-in link's session lands after signing out when the operator gave no return address: such a
 * customer signs in on the operator's site, so the password form would be a dead end. The brand's support
 * link, when set, is under the card (bareLayout).
 */
export function signedOutPage(brand: Brand | undefined): SafeHtml {
  return bareLayout(
    'You are signed out',
    html`<div class="card" data-signed-out>
      <div class="card-body">
        <h1>You are signed out</h1>
        <p>To see your hooks again, sign in again from your provider's site, where you opened this page.</p>
      </div>
    </div>`,
    brand,
  );
}
