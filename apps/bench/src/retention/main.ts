import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { openHistory } from '@hookline/history';
import { startMonitor } from '@hookline/monitor';
import { createRedis } from '@hookline/redis';
import { createServices } from '@hookline/services';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startWorker } from '@hookline/worker';
import { deletePrefix } from '../delete-prefix';
import { dropBenchSchema } from '../history/drop-schema';

// `pnpm bench:retention`: what Redis keeps per delivered event, right after delivery and a minute later
// (product.md §18: no payload outlives its delivery by more than a minute). Memory is summed over the run's
// own keys (MEMORY USAGE of each), so other users of the same Redis do not count. Loopback only: the Redis at
// REDIS_URL, the PostgreSQL at DATABASE_URL (a schema of its own, dropped at the end). JSON on stdout.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EVENTS = Number(process.env.EVENTS ?? 5000);
const HOOKS = 10;
const AFTER_MS = 65_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const prefix = `bench-retention-${randomBytes(4).toString('hex')}`;
  const schema = `bench_retention_${randomBytes(4).toString('hex')}`;
  const history = await openHistory({ kind: 'server', url: DATABASE_URL, schema });
  const redis = createRedis(REDIS_URL);
  const services = createServices({
    redis,
    settings: { HOOKLINE_QUEUE_PREFIX: prefix, HOOKLINE_HOLD_MAX: 10_000 },
    secretKey: randomBytes(32),
    historyDb: history.client,
  });
  const { store, keys, producer } = services;
  const logger = createLogger('warn', 'bench');
  const accounts: string[] = [];
  for (let i = 0; i < HOOKS; i++) {
    const account = await store.accounts.create({ name: `bench-${i}` });
    await store.hooks.create(account.id, { url, format: 'json', auth: { scheme: 'none' } }, 'operator');
    accounts.push(account.id);
  }
  const worker = startWorker({
    config: {
      HOOKLINE_DELIVERY_TIMEOUT_MS: 5000,
      HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
      HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
      HOOKLINE_WORKER_MAX_HOOKS: 100,
    },
    redis,
    keys,
    store,
    metrics: createMetrics(),
    logger,
  });
  const monitor = startMonitor({
    redis,
    keys,
    store: { ...store, deliveryLog: services.deliveryLog, historyOutbox: services.outbox },
    history,
    logger,
    config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 10, HOOKLINE_SUSPEND_AFTER_MS: 600_000 },
  });
  const memory = async () => {
    let bytes = 0;
    let count = 0;
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of found) {
        bytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
        count++;
      }
    } while (cursor !== '0');
    return { bytes, keys: count };
  };
  const publish = async (count: number, tag: string) => {
    const target = received + count;
    for (let i = 0; i < count; i++)
      await producer.publish(accounts[i % HOOKS]!, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: `${tag}-${i}` },
      });
    while (received < target) await sleep(10);
    while ((await redis.zcard(keys.historyDirty())) > 0) await sleep(50);
  };
  try {
    // Warm-up: every hook has delivered and kept its finished jobs (bounded per hook) before the baseline.
    log('retention: warming up');
    await publish(HOOKS * 30, 'warm');
    await sleep(AFTER_MS);
    const before = await memory();
    log(`retention: ${EVENTS} events to ${HOOKS} hooks`);
    await publish(EVENTS, 'run');
    const delivered = await memory();
    log(`retention: waiting ${AFTER_MS / 1000} s`);
    await sleep(AFTER_MS);
    const after = await memory();
    const perEvent = (m: { bytes: number }) => Math.round((m.bytes - before.bytes) / EVENTS);
    process.stdout.write(
      `${JSON.stringify({
        events: EVENTS,
        hooks: HOOKS,
        bytesPerEventRightAfterDelivery: perEvent(delivered),
        bytesPerEventAfterAMinute: perEvent(after),
        keys: { before: before.keys, rightAfter: delivered.keys, afterAMinute: after.keys },
      })}\n`,
    );
  } finally {
    await monitor.close();
    await worker.close();
    await services.close();
    await deletePrefix(redis, prefix);
    await history.close();
    await dropBenchSchema(DATABASE_URL, schema).catch(() => undefined);
    redis.disconnect();
    server.close();
  }
}

main().catch((error: unknown) => {
  log(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
