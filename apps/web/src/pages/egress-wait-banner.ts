import type { HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { time } from '../view/format';

/**
 * While the hook's next event waits on the operator's egress proxy: nothing was sent, nothing counts against
 * the endpoint, and the events go in order once the proxy lets them through.
 */
export function egressWaitBanner(hook: HookView): SafeHtml | string {
  const wait = hook.egress_wait;
  if (!wait) return '';
  return html`<div class="alert alert-warning" role="status" data-egress-wait>
    <p>
      <strong>Deliveries wait on the egress proxy.</strong> Since ${time(wait.since)} the proxy that
      deliveries leave through has not let this hook's next event out (${wait.reason}). Nothing was sent and
      nothing counts against your endpoint; the waiting events go in order once the proxy is back.
    </p>
  </div>`;
}
