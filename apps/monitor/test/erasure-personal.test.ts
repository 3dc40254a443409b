import { randomBytes } from 'node:crypto';
import { parseEventCatalog, type EventCatalog, type HookView } from '@hookline/core';
import { DeliveryLog, HistoryReader, openHistory, type HistoryStore } from '@hookline/history';
import { HistoryOutbox, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, usePostgres, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import { startWorker } from '@hookline/worker';
import { startMonitor } from '../src';
import { databaseText, redisText } from './erasure-support';

jest.setTimeout(60000);

// An erasure by number also matches the fields the operator's catalogue marks personal: a catalogue kind
// whose `callback` is personal loses it everywhere, in Redis and in the database; the kind's other text
// fields of other events stay.

const ctx = useRedis('erasure-personal');
const pg = usePostgres('erasure_personal');
const NUMBER = '+15550100888';
const CATALOG = JSON.stringify({
  kinds: [
    {
      name: 'callback_requested',
      fields: [
        { name: 'call_id', type: 'string' },
        { name: 'callback', type: 'string', personal: true },
        { name: 'note', type: 'string' },
      ],
    },
  ],
});
let keys: RedisKeys;
let store: Store & { deliveryLog: DeliveryLog };
let history: HistoryStore;
let producer: Producer;
let receiver: Receiver;
let hook: HookView;

beforeEach(async () => {
  const parsed = parseEventCatalog(CATALOG);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const catalog: EventCatalog = parsed.catalog;
  keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
  const outbox = new HistoryOutbox(ctx.redis, keys);
  const base = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
    catalog,
  });
  store = { ...base, deliveryLog: new DeliveryLog(outbox, new HistoryReader(history.client, outbox)) };
  producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys, catalog }));
  receiver = ctx.closeLater(await startReceiver(() => ({ kind: 'status', status: 200 })));
  const account = await store.accounts.create({ name: 'Acme Telecom' });
  hook = await store.hooks.create(
    account.id,
    { url: receiver.url('/a'), format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
  const worker = startWorker({
    config: {
      HOOKLINE_DELIVERY_TIMEOUT_MS: 5000,
      HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
      HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
      HOOKLINE_WORKER_MAX_HOOKS: 16,
    },
    redis: ctx.redis,
    keys,
    store: base,
    metrics: createMetrics(),
    logger: createLogger('silent', 'test-worker'),
  });
  ctx.onCleanup(() => worker.close());
  const monitor = startMonitor({
    redis: ctx.redis,
    keys,
    store: { ...store, historyOutbox: outbox },
    history,
    logger: createLogger('silent', 'test-monitor'),
    config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 100, HOOKLINE_SUSPEND_AFTER_MS: 60_000 },
    blockMs: 100,
    historyTimings: { idleMs: 50, holdMs: 2000 },
    erasures: { erasures: store.erasures, settleMs: 300, pollMs: 100 },
  });
  ctx.onCleanup(() => monitor.close());
});

const callback = (callId: string, number: string, note: string) => ({
  type: 'callback_requested',
  id: `idem-${callId}`,
  data: { call_id: callId, callback: number, note },
});

describe('erasure by number of a personal catalogue field', () => {
  it("erases the events whose personal field is the number, in Redis and in the database, and no other's", async () => {
    const erased = await producer.publish(hook.account_id, callback('p1', NUMBER, 'Erasable Note Text'));
    const kept = await producer.publish(hook.account_id, callback('p2', '+16660001', 'Kept Note Text'));
    await receiver.waitFor(2);
    await waitUntil(
      async () => (await store.deliveryLog.list(hook.id, 10)).length === 2,
      'both records in the history',
    );

    const { id } = await store.erasures.request(
      hook.account_id,
      { kind: 'number', value: NUMBER },
      'operator',
    );
    const done = await waitUntil(async () => {
      const view = await store.erasures.get(hook.account_id, id);
      return view?.state === 'done' ? view : undefined;
    }, 'the erasure to be done');
    expect(done.counts.history + done.counts.outboxes).toBe(1);
    expect(done.counts.idempotency).toBe(1);
    await waitUntil(
      async () => (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 0,
      'every record in the database',
    );

    const redisDump = await redisText(ctx.redis, ctx.prefix);
    const dbDump = await databaseText(history.client, pg.schema);
    for (const secret of [NUMBER, 'Erasable Note Text', 'idem-p1']) {
      expect(redisDump).not.toContain(secret);
      expect(dbDump).not.toContain(secret);
    }
    expect(dbDump).toContain('Kept Note Text');
    const log = await store.deliveryLog.list(hook.id, 10);
    expect(log.find((r) => r.event_id === erased.id)).toMatchObject({
      outcome: 'delivered',
      erased_at: expect.any(String),
    });
    expect(log.find((r) => r.event_id === kept.id)).not.toHaveProperty('erased_at');
  });
});
