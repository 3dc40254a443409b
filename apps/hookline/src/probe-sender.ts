import type { Config } from '@hookline/config';
import { createDeliverer } from '@hookline/delivery';
import type { HookControlDeps } from '@hookline/suspension';

/**
 * What the HTTP tier sends a probe with (a re-enable that tests first): a deliverer of its own, with the same
 * deadline and network policy as the workers'.
 */
export function probeSender(
  config: Pick<
    Config,
    'HOOKLINE_DELIVERY_TIMEOUT_MS' | 'HOOKLINE_ALLOW_NETWORKS' | 'HOOKLINE_EVENT_TYPE_HEADER'
  >,
): { probe: NonNullable<HookControlDeps['probe']>; close(): Promise<void> } {
  const deliverer = createDeliverer({
    timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
    allowNetworks: config.HOOKLINE_ALLOW_NETWORKS,
  });
  return {
    probe: {
      attempt: (request) => deliverer.attempt(request),
      eventTypeHeader: config.HOOKLINE_EVENT_TYPE_HEADER,
    },
    close: () => deliverer.close(),
  };
}
