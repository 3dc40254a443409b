import type { Redis } from 'ioredis';
import { secretKeyOf, type Config } from '@hookline/config';
import type { SqlClient } from '@hookline/history';
import { createServices, type Services } from '@hookline/services';
import type { Logger, Metrics } from '@hookline/telemetry';
import type { ApiDeps } from '../deps';

export type ProductionApiDeps = ApiDeps & Pick<Services, 'producer' | 'control' | 'outbox'>;

/** The production parts behind the API (createServices, as the HTTP tier wires them) on one Redis client. */
export function createApiDeps(
  config: Config,
  redis: Redis,
  logger: Logger,
  metrics: Metrics,
  historyDb: SqlClient,
): ProductionApiDeps {
  const { store, history, historyAnswers, outbox, producer, control } = createServices({
    redis,
    settings: config,
    secretKey: secretKeyOf(config),
    historyDb,
    log: logger,
  });
  return { config, redis, store, history, historyAnswers, outbox, producer, control, metrics, logger };
}
