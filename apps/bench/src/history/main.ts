import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { HistoryDrain, HistoryReader, openHistory, type HistoryStore } from '@hookline/history';
import { createRedis, HistoryOutbox, redisKeys } from '@hookline/redis';
import IORedis from 'ioredis';
import { deletePrefix } from '../delete-prefix';
import { summarizeLatencies } from '../stats';
import { fillHistory } from './fill';
import { benchRecord } from './records';
import { dropBenchSchema } from './drop-schema';
import { measureDeliveries } from './deliveries';

// `pnpm bench:history`: the delivery history's targets (issue 13), measured against references in the same
// run. Loopback only: the Redis at REDIS_URL and the PostgreSQL at DATABASE_URL (a schema of its own, dropped
// at the end). Progress on stderr, the results as JSON on stdout.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUICK = process.argv.includes('--quick');
/** `--only=writer,deliveries,search`: some phases alone (all three by default). */
const ONLY = (
  process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'writer,deliveries,search'
).split(',');
const WRITE_RECORDS = QUICK ? 20_000 : 100_000;
const WRITE_HOOKS = 1_000;
const FILL_ROWS = QUICK ? 500_000 : 5_000_000;
const SEARCHES = QUICK ? 300 : 2_000;
const DELIVERIES = QUICK ? 10_000 : 100_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function writerThroughput(history: HistoryStore, prefix: string) {
  const redis = createRedis(REDIS_URL);
  const keys = redisKeys(prefix);
  const outbox = new HistoryOutbox(redis, keys);
  const now = Date.now();
  const perHook = WRITE_RECORDS / WRITE_HOOKS;
  const batches = Array.from({ length: WRITE_HOOKS }, (_, h) =>
    Array.from({ length: perHook }, (_, i) =>
      benchRecord(`acct_w${h}`, `hk_w${String(h).padStart(8, '0')}`, now - 60_000 + i, `w-${h}-${i}`),
    ),
  );
  // Reference: the same records straight into the database, no Redis in between.
  let started = performance.now();
  for (let i = 0; i < batches.length; i += 10) await history.writer.write(batches.slice(i, i + 10).flat());
  const directPerS = WRITE_RECORDS / ((performance.now() - started) / 1000);
  await history.client.query('TRUNCATE attempts');
  for (const records of batches) await outbox.append(records[0]!.hook_id, records);
  log(`writer: ${WRITE_RECORDS} records in ${WRITE_HOOKS} outboxes`);
  const drain = new HistoryDrain({
    outbox,
    writer: history.writer,
    partitions: history.partitions,
    retentionDays: 30,
    clock: () => new Date(),
    onError: (error) => log(`writer error: ${String(error)}`),
  });
  started = performance.now();
  let written = 0;
  while (written < WRITE_RECORDS) written += (await drain.round()).records;
  const drainPerS = WRITE_RECORDS / ((performance.now() - started) / 1000);
  await deletePrefix(redis, prefix);
  redis.disconnect();
  return { records: WRITE_RECORDS, drainPerS: Math.round(drainPerS), directPerS: Math.round(directPerS) };
}

async function searchLatency(history: HistoryStore) {
  const accounts = Math.max(1, Math.round(FILL_ROWS / 500));
  log(`search: filling ${FILL_ROWS} records over 30 days (${accounts} accounts of 5 hooks)`);
  let started = performance.now();
  await fillHistory(history.client, FILL_ROWS, { accounts, days: 30, now: Date.now() });
  const fillS = (performance.now() - started) / 1000;
  const reader = new HistoryReader(history.client, { pending: async () => [] }, async () => []);
  const byCall = new Float64Array(SEARCHES);
  const byHook = new Float64Array(SEARCHES);
  let found = 0;
  for (let i = 0; i < SEARCHES; i++) {
    const call = Math.floor(Math.random() * (FILL_ROWS / 5));
    const account = `acct_${String(call % accounts).padStart(20, '0')}`;
    started = performance.now();
    const page = await reader.listForAccount(account, { callId: `call-${call}` }, { limit: 50 });
    byCall[i] = (performance.now() - started) * 1000;
    found += page.data.length;
    const hook = `hk_${String(call % accounts).padStart(18, '0')}${call % 5}`;
    started = performance.now();
    await reader.listForHook(hook, {}, { limit: 50 });
    byHook[i] = (performance.now() - started) * 1000;
  }
  const [row] = await history.client.query<{ n: number }>('SELECT count(*) AS n FROM attempts');
  return {
    rows: row?.n ?? 0,
    fillSeconds: Math.round(fillS),
    searchByCall: summarizeLatencies(byCall),
    hookPage: summarizeLatencies(byHook),
    recordsFoundPerSearch: found / SEARCHES,
  };
}

async function main(): Promise<void> {
  const schema = `bench_history_${randomBytes(4).toString('hex')}`;
  const prefix = `bench-history-${randomBytes(4).toString('hex')}`;
  const history = await openHistory({ kind: 'server', url: DATABASE_URL, schema });
  const results: Record<string, unknown> = { quick: QUICK };
  try {
    if (ONLY.includes('writer')) {
      results.writer = await writerThroughput(history, prefix);
      log(`writer: ${JSON.stringify(results.writer)}`);
      await history.client.query('TRUNCATE attempts');
    }
    if (ONLY.includes('deliveries')) {
      results.deliveries = await measureDeliveries({ redisUrl: REDIS_URL, history, events: DELIVERIES, log });
      log(`deliveries: ${JSON.stringify(results.deliveries)}`);
      await history.client.query('TRUNCATE attempts');
    }
    if (ONLY.includes('search')) {
      results.search = await searchLatency(history);
      log(`search: ${JSON.stringify(results.search)}`);
    }
  } finally {
    await history.close();
    const admin = new IORedis(REDIS_URL);
    await deletePrefix(admin, prefix);
    admin.disconnect();
    await dropBenchSchema(DATABASE_URL, schema);
  }
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`bench:history failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
