import { parseEventCatalog, type HookView } from '@hookline/core';
import type { HistoryStore } from '@hookline/history';
import type { Producer } from '@hookline/queue';
import type { RedisKeys } from '@hookline/redis';
import {
  CALLBACK_CATALOG,
  startReceiver,
  usePostgres,
  useRedis,
  waitUntil,
  type Receiver,
} from '@hookline/testing';
import { databaseText, erasingMonitor, erasureDone, redisText } from './erasure-support';
import { openPipeline, type Pipeline } from './pipeline';

jest.setTimeout(60000);

// An erasure by number also matches the fields the operator's catalogue marks personal: a catalogue kind
// whose `callback` is personal loses it everywhere, in Redis and in the database; the kind's other text
// fields of other events stay.

const ctx = useRedis('erasure-personal');
const pg = usePostgres('erasure_personal');
const NUMBER = '+15550100888';
let keys: RedisKeys;
let store: Pipeline['store'];
let history: HistoryStore;
let producer: Producer;
let receiver: Receiver;
let hook: HookView;

beforeEach(async () => {
  const parsed = parseEventCatalog(CALLBACK_CATALOG);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const p = await openPipeline(ctx, pg, { catalog: parsed.catalog });
  ({ keys, store, history, producer } = p);
  receiver = ctx.closeLater(await startReceiver(() => ({ kind: 'status', status: 200 })));
  const account = await store.accounts.create({ name: 'Acme Telecom' });
  hook = await store.hooks.create(
    account.id,
    { url: receiver.url('/a'), format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
  p.run({ deliveryTimeoutMs: 5000, monitor: erasingMonitor(store.erasures) });
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
    // The log reads the outbox too: a record the writer has inserted but not yet trimmed is in both places,
    // and an erasure then would count its two copies.
    await waitUntil(
      async () => (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 0,
      'both records in the database alone',
    );

    const { id } = await store.erasures.request(
      hook.account_id,
      { kind: 'number', value: NUMBER },
      'operator',
    );
    const done = await erasureDone(store.erasures, hook.account_id, id);
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
