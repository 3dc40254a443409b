import type { Config } from '@hookline/config';
import { deliveryUserAgent } from '@hookline/core';
import { createDeliverer, OAuthTokens, parseEgressProxy, sentOrError } from '@hookline/delivery';
import type { HookControlDeps } from '@hookline/suspension';

/**
 * What the HTTP tier sends a probe with (a re-enable that tests first): a deliverer of its own, with the same
 * deadline, network policy and egress proxy as the workers'. A probe the proxy keeps from leaving is an
 * `error` with the proxy's reason: the customer is waiting for the answer.
 */
export function probeSender(
  config: Pick<
    Config,
    | 'HOOKLINE_DELIVERY_TIMEOUT_MS'
    | 'HOOKLINE_ALLOW_NETWORKS'
    | 'HOOKLINE_EVENT_TYPE_HEADER'
    | 'HOOKLINE_EGRESS_PROXY'
    | 'HOOKLINE_BRAND_NAME'
    | 'HOOKLINE_TRACE_PROPAGATE'
  >,
): { probe: NonNullable<HookControlDeps['probe']>; close(): Promise<void> } {
  const deliverer = createDeliverer({
    timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
    allowNetworks: config.HOOKLINE_ALLOW_NETWORKS,
    ...(config.HOOKLINE_EGRESS_PROXY ? { proxy: parseEgressProxy(config.HOOKLINE_EGRESS_PROXY) } : {}),
  });
  const tokens = new OAuthTokens((request, began) => deliverer.attempt(request, began));
  return {
    probe: {
      attempt: async (request, began) => sentOrError(await deliverer.attempt(request, began)),
      oauthToken: (owner, began) => tokens.token(owner, began),
      eventTypeHeader: config.HOOKLINE_EVENT_TYPE_HEADER,
      userAgent: deliveryUserAgent(config.HOOKLINE_BRAND_NAME),
      propagateTrace: config.HOOKLINE_TRACE_PROPAGATE,
    },
    close: () => deliverer.close(),
  };
}
