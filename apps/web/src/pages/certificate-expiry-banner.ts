import { EXPIRY_WARNING_DAYS, type HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { time } from '../view/format';

/** From 14 days before the hook's client certificate expires: an endpoint that requires it will refuse us. */
export function certificateExpiryBanner(hook: HookView): SafeHtml | string {
  const tls = hook.tls;
  if (!tls?.expires_soon) return '';
  return html`<div class="alert alert-warning" role="status" data-tls-expiry>
    <p>
      <strong>The client certificate is valid until ${time(tls.expires_at)}.</strong> ${tls.subject} is within
      ${String(EXPIRY_WARNING_DAYS)} days of its end (or past it); from then on your endpoint will refuse
      deliveries made with it. Upload a new certificate and key on the Edit page.
    </p>
  </div>`;
}
