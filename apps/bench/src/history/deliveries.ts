import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import type { HistoryStore } from '@hookline/history';
import { startMonitor } from '@hookline/monitor';
import { createRedis, hookQueueLayout } from '@hookline/redis';
import { createServices } from '@hookline/services';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startWorker } from '@hookline/worker';
import { deletePrefix } from '../delete-prefix';

const HOOKS = 20;
const WINDOW = 400;

export interface DeliveryMeasure {
  readonly redisUrl: string;
  readonly history: HistoryStore;
  readonly events: number;
  readonly log: (line: string) => void;
}

/**
 * Deliveries through a real worker to a loopback receiver, twice in one run: without a history writer (the
 * records stay in Redis) and with the monitor's writer moving them to PostgreSQL. Reports both throughputs,
 * and the Redis memory each delivered event leaves behind once the history has its record.
 */
export async function measureDeliveries(m: DeliveryMeasure) {
  const received = { count: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.count++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const prefix = `bench-deliveries-${randomBytes(4).toString('hex')}`;
  const redis = createRedis(m.redisUrl);
  const settings = { HOOKLINE_QUEUE_PREFIX: prefix, HOOKLINE_HOLD_MAX: 10_000 };
  const services = createServices({
    redis,
    settings,
    secretKey: randomBytes(32),
    historyDb: m.history.client,
  });
  const { store, keys, producer } = services;
  const logger = createLogger('warn', 'bench');
  const accounts = await Promise.all(
    Array.from({ length: HOOKS }, async (_, i) => {
      const account = await store.accounts.create({ name: `bench-${i}` });
      await store.hooks.create(account.id, { url, format: 'json', auth: { scheme: 'none' } }, 'operator');
      return account.id;
    }),
  );
  const worker = startWorker({
    config: {
      HOOKLINE_DELIVERY_TIMEOUT_MS: 5000,
      HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
      HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
      HOOKLINE_WORKER_MAX_HOOKS: 1000,
    },
    redis,
    keys,
    store,
    metrics: createMetrics(),
    logger,
  });
  /** Publishes `count` events round robin with WINDOW outstanding; resolves when all have arrived. */
  const run = async (count: number): Promise<number> => {
    const base = received.count;
    const started = performance.now();
    let next = 0;
    let published = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        await producer.publish(accounts[i % HOOKS]!, {
          type: 'call_created',
          data: { ...SAMPLE_CALL_DATA, call_id: `b-${i}` },
        });
        published++;
        while (published - (received.count - base) > WINDOW) await new Promise((r) => setTimeout(r, 1));
      }
    };
    const target = base + count;
    await Promise.all(Array.from({ length: 16 }, lane));
    while (received.count < target) await new Promise((r) => setTimeout(r, 5));
    return Math.round(count / ((performance.now() - started) / 1000));
  };
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
  const outboxesEmpty = async () => (await redis.zcard(keys.historyDirty())) === 0;
  // BullMQ's deduplication keys (one per event and hook, kept DEDUPE_AFTER_DONE_MS once the event is in every
  // hook's queue, so a repeated fan-out adds nothing twice) expire by themselves: what stays once they have is
  // measured apart.
  const dedupePattern = hookQueueLayout(keys, '*').deduplication('*');
  const dropDedupeKeys = async () => {
    let removed = 0;
    let cursor = '0';
    do {
      const [nextCursor, found] = await redis.scan(cursor, 'MATCH', dedupePattern, 'COUNT', 1000);
      cursor = nextCursor;
      if (found.length > 0) removed += await redis.unlink(...found);
    } while (cursor !== '0');
    return removed;
  };
  const startWriter = () =>
    startMonitor({
      redis,
      keys,
      store: { ...store, deliveryLog: services.deliveryLog, historyOutbox: services.outbox },
      history: m.history,
      logger,
      config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 10, HOOKLINE_SUSPEND_AFTER_MS: 600_000 },
    });
  const drained = async () => {
    while (!(await outboxesEmpty())) await new Promise((r) => setTimeout(r, 50));
  };
  try {
    m.log(`deliveries: warming up`);
    await run(Math.min(2000, m.events / 10));
    // Alternating, so that whatever else the machine does weighs on both alike; the writer empties what a
    // phase without it left before the next phase with it is timed.
    const quarter = m.events / 4;
    const without: number[] = [];
    const withWriter: number[] = [];
    let memory = { before: 0, after: 0, afterDedupe: 0 };
    for (let round = 0; round < 2; round++) {
      m.log(`deliveries: ${quarter} without a history writer`);
      without.push(await run(quarter));
      const monitor = startWriter();
      await drained();
      await dropDedupeKeys();
      const before = await usedMemory();
      m.log(`deliveries: ${quarter} with the history writer`);
      withWriter.push(await run(quarter));
      await drained();
      const after = await usedMemory();
      await dropDedupeKeys();
      memory = { before, after, afterDedupe: await usedMemory() };
      await monitor.close();
    }
    const mean = (list: number[]) => Math.round(list.reduce((a, b) => a + b, 0) / list.length);
    const [row] = await m.history.client.query<{ n: number }>('SELECT count(*) AS n FROM attempts');
    return {
      hooks: HOOKS,
      withoutWriterPerS: without,
      withWriterPerS: withWriter,
      ratio: Math.round((mean(withWriter) / mean(without)) * 100) / 100,
      redisBytesPerDeliveredEvent: Math.round((memory.after - memory.before) / quarter),
      redisBytesPerDeliveredEventOnceDedupeExpired: Math.round(
        (memory.afterDedupe - memory.before) / quarter,
      ),
      recordsInDatabase: row?.n ?? 0,
    };
  } finally {
    await worker.close();
    await services.close();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    server.close();
  }
}
