import type { AttemptResult, SendResult } from '@hookline/core';

/**
 * For callers that record whatever happened at once (a probe before re-enabling a hook): a request the egress
 * proxy kept from leaving is an `error` with the proxy's reason. The worker does not use this: for it, such an
 * event waits and goes later.
 */
export function sentOrError(result: SendResult): AttemptResult {
  if (result.outcome !== 'not_sent') return result;
  return { outcome: 'error', error: `not sent: ${result.error}`, durationMs: result.durationMs };
}
