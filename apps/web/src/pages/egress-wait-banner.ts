import type { HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { time } from '../view/format';

// The proxy's reason as a worker recorded it is the operator's (the proxy's address, a system code, the proxy's
// own status line: the API answer and /readyz keep it); the customer reads what its kind means, in plain words
// (§15).
const IN_WORDS = { refused: 'it refuses to let deliveries through', unreachable: 'it cannot be reached' };

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
      deliveries leave through has not let this hook's next event out (${IN_WORDS[wait.cause ?? 'refused']}).
      Nothing was sent and nothing counts against your endpoint; the waiting events go in order once the proxy
      is back.
    </p>
  </div>`;
}
