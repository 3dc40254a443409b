import type { Redis } from 'ioredis';
import { secretKeyOf, type Config } from '@hookline/config';
import { deliveryUserAgent } from '@hookline/core';
import { createDeliverer, OAuthTokens, sentOrError } from '@hookline/delivery';
import type { SqlClient } from '@hookline/history';
import { createServices, type Services } from '@hookline/services';
import type { Logger, Metrics } from '@hookline/telemetry';
import type { ApiDeps } from '../deps';

export type ProductionApiDeps = ApiDeps &
  Pick<Services, 'producer' | 'control' | 'outbox'> & {
    /** Closes the probes' deliverer. */
    closeProbes(): Promise<void>;
  };

/** The production parts behind the API (createServices, as the HTTP tier wires them) on one Redis client. */
export function createApiDeps(
  config: Config,
  redis: Redis,
  logger: Logger,
  metrics: Metrics,
  historyDb: SqlClient,
): ProductionApiDeps {
  // As the HTTP tier wires it (apps/hookline probe-sender): a deliverer of its own for the probes.
  const deliverer = createDeliverer({
    timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
    allowNetworks: config.HOOKLINE_ALLOW_NETWORKS,
  });
  const tokens = new OAuthTokens((request) => deliverer.attempt(request));
  const { store, history, historyAnswers, historyLagMs, outbox, producer, control, audit, portalLinks } =
    createServices({
      redis,
      settings: config,
      secretKey: secretKeyOf(config),
      historyDb,
      probe: {
        attempt: async (request) => sentOrError(await deliverer.attempt(request)),
        oauthToken: (owner) => tokens.token(owner),
        eventTypeHeader: config.HOOKLINE_EVENT_TYPE_HEADER,
        userAgent: deliveryUserAgent(config.HOOKLINE_BRAND_NAME),
      },
      log: logger,
    });
  return {
    config,
    redis,
    store,
    history,
    historyAnswers,
    historyLagMs,
    outbox,
    producer,
    control,
    audit,
    portalLinks,
    metrics,
    logger,
    closeProbes: () => deliverer.close(),
  };
}
