import { secretKeyOf } from '@hookline/config';
import { startMonitor } from '@hookline/monitor';
import { DeliveryLog, HistoryReader } from '@hookline/history';
import {
  answersWithin,
  batchWritesPerTurn,
  createRedis,
  HistoryOutbox,
  HookQueues,
  redisKeys,
} from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import { runProcess } from './bootstrap';
import { answerCommandLine } from './entry-usage';
import { openHistoryFor } from './history-db';
import { erasureSettleMs } from './erasure-settle';
import { noticesFor } from './notices-for';
import { serveProcessProbes } from './process-probes';

// Production entry point of the suspension monitor. One is enough; run two or more for availability.
/** How long a stopping monitor waits for its work in flight while Redis does not answer. */
const UNREACHABLE_STOP_MS = 3_000;

async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  const answer = await Promise.race([settled, late]);
  clearTimeout(timer);
  return answer;
}

answerCommandLine('monitor-main.js');
runProcess(process.env, 'monitor', 'hookline-monitor', async (base) => {
  const { config, logger, metrics, watch, tracing } = base;
  // Its once-a-second loops run on one beat (core/beat.ts); the commands of a turn go out in one write.
  const redis = watch(batchWritesPerTurn(createRedis(config)));
  const keys = redisKeys(config.HOOKLINE_QUEUE_PREFIX);
  // Required for the monitor (loadConfig): it opens erasure requests and seals the operator notices' secret.
  const secretBox = SecretBox.fromKey(secretKeyOf(config));
  const catalog = config.eventCatalog;
  const store = createStore({ redis, keys, secretBox, hookQueues: new HookQueues(redis, keys), catalog });
  // Publishes the operator's notices (HOOKLINE_OPERATOR_WEBHOOK_URL) to their hook.
  const producer = new Producer({
    redis,
    keys,
    catalog,
    erasureTags: store.erasureTags,
    ...(tracing ? { tracing } : {}),
  });
  const history = await openHistoryFor(config);
  const outbox = new HistoryOutbox(redis, keys);
  const deliveryLog = new DeliveryLog(
    outbox,
    new HistoryReader(history.client, outbox, (id) => store.hooks.listIds(id)),
  );
  const monitor = startMonitor({
    redis,
    keys,
    store: { ...store, deliveryLog, historyOutbox: outbox },
    history,
    logger,
    metrics,
    config,
    ...(tracing ? { tracing } : {}),
    ...noticesFor(config, store.accounts, producer),
    erasures: { erasures: store.erasures, settleMs: erasureSettleMs(config) },
  });
  // Its history writer moves every attempt record to PostgreSQL: without it, it is not ready either.
  const probes = await serveProcessProbes(config, metrics, { redis, history: history.client });
  logger.info({ metricsPort: probes.port }, 'monitor listening for metrics');
  return async () => {
    probes.stopping();
    // With Redis unreachable, the loops' work in flight waits on commands nobody answers (ioredis keeps them
    // queued, even past a disconnect while it is between reconnects): it is given a few seconds, not the whole
    // stop bound. That work is leased or idempotent; another monitor carries it on.
    // A Redis that is connected but answers nothing (frozen, a paused VM) is not answering either: its
    // connection looks ready, so a PING, bounded, is what tells it from work that is merely slow.
    const closing = monitor.close();
    const answering = answersWithin(redis, UNREACHABLE_STOP_MS);
    if (!(await settlesWithin(closing, UNREACHABLE_STOP_MS)) && !(await answering).ok)
      logger.warn({ waitedMs: UNREACHABLE_STOP_MS }, 'stopping with work in flight: Redis does not answer');
    else await closing;
    await producer.close();
    await probes.close();
    await history.close();
    redis.disconnect();
  };
});
