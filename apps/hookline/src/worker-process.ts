import { secretKeyOf, suspensionRuleOf } from '@hookline/config';
import { batchWritesPerTurn, createRedis, HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { startWorker } from '@hookline/worker';
import type { ProcessBase } from './bootstrap';
import { serveProcessProbes } from './process-probes';

/**
 * A whole delivery process: Redis, store, worker, metrics and probes; stopping takes no new attempts (and
 * /readyz says so), lets the one in flight finish and gives every hook back. `adaptStore` lets crash tests
 * slow one dependency down while keeping the production wiring.
 */
export async function startWorkerProcess(
  { config, logger, metrics, watch, tracing }: ProcessBase,
  options: { adaptStore?: (store: Store) => Store } = {},
): Promise<() => Promise<void>> {
  // Named, so an operator's CLIENT LIST shows which process each connection belongs to (the blocking one is
  // a duplicate and carries the name too). The commands of a turn go out in one write (see batchWritesPerTurn).
  const redis = watch(
    batchWritesPerTurn(createRedis(config, { connectionName: `hookline-worker-${process.pid}` })),
  );
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  const secretBox = SecretBox.fromKey(secretKeyOf(config));
  const baseStore = createStore({
    redis,
    keys,
    secretBox,
    hookQueues: new HookQueues(redis, keys),
    // The failure that suspends a hook pauses its queue in the outcome's script: nothing leaves after it.
    suspensionRule: suspensionRuleOf(config),
  });
  const store = options.adaptStore ? options.adaptStore(baseStore) : baseStore;
  const worker = startWorker({
    config,
    redis,
    keys,
    store,
    metrics,
    logger,
    ...(tracing ? { tracing } : {}),
  });
  // Workers never touch the history database: Redis alone makes one ready.
  const probes = await serveProcessProbes(config, metrics, { redis });
  logger.info({ metricsPort: probes.port, maxHooks: config.HOOKLINE_WORKER_MAX_HOOKS }, 'worker started');
  return async () => {
    probes.stopping();
    await worker.close();
    await probes.close();
    redis.disconnect();
  };
}
