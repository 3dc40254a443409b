import { type HookView } from '@hookline/core';
import { HookQueues, type RedisKeys } from '@hookline/redis';
import type { HistoryStore } from '@hookline/history';
import type { Producer } from '@hookline/queue';
import type { Store } from '@hookline/store';
import type { HookControl, SuspensionStore } from '@hookline/suspension';
import { startReceiver, usePostgres, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import { callEvent as call, databaseText, erasingMonitor, erasureDone, redisText } from './erasure-support';
import { openPipeline } from './pipeline';

jest.setTimeout(60000);

// Erasure end to end (product.md §18) with the real worker, monitor and history writer: after an erasure by
// number, nothing in Redis and nothing in the database holds the number or the caller's name; the history
// keeps stubs with their outcomes; a held event of that number is never sent; the rest is untouched.

const ctx = useRedis('erasure');
const pg = usePostgres('erasure');
const echoedCall = (body: Buffer): string => {
  try {
    const { from, to } = JSON.parse(body.toString()) as { from?: unknown; to?: unknown };
    return `${String(from)} to ${String(to)}`;
  } catch {
    return '';
  }
};
const NUMBER = '+15550100999';
const NAME = 'Zelda Quux-Erasable';
let keys: RedisKeys;
let store: Store & SuspensionStore;
let history: HistoryStore;
let control: HookControl;
let producer: Producer;
let receiver: Receiver;
let hooks: HookView[];

beforeEach(async () => {
  const p = await openPipeline(ctx, pg);
  ({ keys, store, history, control, producer } = p);
  // The endpoint echoes the call's numbers in a response header: the records then quote personal data there too.
  receiver = ctx.closeLater(
    await startReceiver((req) => ({
      kind: 'status',
      status: 200,
      headers: { 'X-Echo-Call': echoedCall(req.body) },
    })),
  );
  const account = await store.accounts.create({ name: 'Acme Telecom' });
  hooks = [];
  for (const path of ['/a', '/b'])
    hooks.push(
      await store.hooks.create(
        account.id,
        { url: receiver.url(path), format: 'json', auth: { scheme: 'none' } },
        'operator',
      ),
    );
  p.run({ deliveryTimeoutMs: 5000, monitor: erasingMonitor(store.erasures) });
});

const acct = () => hooks[0]!.account_id;
const received = (path: string) =>
  receiver.requests
    .filter((r) => r.path === path)
    .map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id);

describe('erasure by number', () => {
  it('leaves no trace of the number in Redis or the database, keeps stubs, and never sends a held event of it', async () => {
    const [a, b] = hooks as [HookView, HookView];
    const ids: Record<string, string> = {};
    const publish = async (...events: ReturnType<typeof call>[]) => {
      for (const e of events) ids[e.data.call_id] = (await producer.publish(acct(), e)).id;
    };
    await publish(
      call('c1', NUMBER, '+4420', NAME),
      call('c2', '+111', '+222'),
      call('c3', '+333', NUMBER),
      call('c4', '+444', '+555'),
    );
    await receiver.waitFor(8);
    // Hook b stops: what follows is held for it, and hook a delivers it.
    // Its suspension quotes a failure of c1, with a response that names the caller (the website's banner).
    const quoted = (await store.deliveryLog.list(b.id, 10)).find((r) => r.event_id === ids.c1)!;
    await control.suspend(b.id, 'maintenance', 'operator', [
      { ...quoted, outcome: 'failed', status_code: 500, response_excerpt: `no such caller ${NAME}` },
    ]);
    await publish(call('c5', NUMBER, '+4420', NAME), call('c6', '+666', '+777'));
    await waitUntil(async () => received('/a').length === 6, 'hook a to get c5 and c6');
    // Both hooks' records in the database alone: a record the writer has inserted but not yet trimmed is in
    // both places, and the erasure would count its two copies.
    await waitUntil(
      async () =>
        (await ctx.redis.llen(keys.hookHistoryOutbox(a.id))) === 0 &&
        (await ctx.redis.llen(keys.hookHistoryOutbox(b.id))) === 0,
      'the history writer to move records to the database',
    );

    const { id } = await store.erasures.request(acct(), { kind: 'number', value: NUMBER }, 'operator');
    const done = await erasureDone(store.erasures, acct(), id);
    expect(done.counts).toMatchObject({ queued: 1, idempotency: 3, hooks: 1 });
    // The banner's quoted failure keeps its ids, time and outcome only (read before the re-enable clears it).
    const banner = (await ctx.redis.hget(keys.hookRecord(b.id), 'suspension_failures')) ?? '';
    expect(banner).toContain(quoted.attempt_id);
    expect(banner).not.toContain(NAME);
    expect(banner).not.toContain('"c1"');
    // c1 and c3 on both hooks and c5 on hook a, in the database or still in an outbox.
    expect(done.counts.history + done.counts.outboxes).toBe(5);

    await control.enable(acct(), b.id, 'deliver', 'operator');
    await waitUntil(async () => received('/b').length === 5, 'hook b to get its held c6');
    expect(received('/b')).toEqual(['c1', 'c2', 'c3', 'c4', 'c6']);
    expect(received('/a')).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);

    await waitUntil(
      async () =>
        (await ctx.redis.llen(keys.hookHistoryOutbox(a.id))) === 0 &&
        (await ctx.redis.llen(keys.hookHistoryOutbox(b.id))) === 0 &&
        (await store.deliveryLog.list(b.id, 50)).length === 6,
      'every record to reach the database',
    );
    const redisDump = await redisText(ctx.redis, ctx.prefix);
    const dbDump = await databaseText(history.client, pg.schema);
    for (const secret of [NUMBER, NAME]) {
      expect(redisDump).not.toContain(secret);
      expect(dbDump).not.toContain(secret);
    }
    // The other party of an erased call goes with it; other calls' numbers stay.
    expect(dbDump).not.toContain('+4420');
    expect(dbDump).toContain('+222');
    expect(redisDump).not.toContain('+4420');

    // Stubs keep ids, times and outcomes; the held c5 is recorded `erased` on hook b and was never sent.
    const logB = await store.deliveryLog.list(b.id, 50);
    const byEvent = (log: typeof logB, callId: string) => log.find((r) => r.event_id === ids[callId]);
    expect(byEvent(logB, 'c5')).toMatchObject({ outcome: 'erased', erased_at: expect.any(String) });
    expect(byEvent(logB, 'c5')).not.toHaveProperty('call_id');
    expect(byEvent(logB, 'c1')).toMatchObject({ outcome: 'delivered', erased_at: expect.any(String) });
    expect(byEvent(logB, 'c2')).toMatchObject({ outcome: 'delivered', call_id: 'c2' });
    expect(byEvent(logB, 'c2')).not.toHaveProperty('erased_at');
    const logA = await store.deliveryLog.list(a.id, 50);
    expect(logA.map((r) => r.outcome)).toEqual(Array(6).fill('delivered'));
    expect(
      logA
        .filter((r) => r.erased_at)
        .map((r) => r.event_id)
        .sort(),
    ).toEqual([ids.c1, ids.c3, ids.c5].sort());

    // The erasure's record and the activity say who asked and how many, never what.
    const activity = JSON.stringify(await store.activity.list(acct(), 50));
    expect(activity).toContain('erasure.done');
    expect(activity).not.toContain(NUMBER);
    expect(await store.erasures.get(acct(), id)).toMatchObject({
      by: 'number',
      requested_by: 'operator',
      state: 'done',
    });
  });
});

describe('what Redis keeps of a delivered event', () => {
  it('finished jobs keep ids and outcomes only: no field of the event is in Redis once it is recorded', async () => {
    const [a] = hooks as [HookView, HookView];
    const { id } = await producer.publish(acct(), call('k1', '+19995550001', '+19995550002', 'Kept Nowhere'));
    await receiver.waitFor(2);
    await waitUntil(
      async () =>
        (await ctx.redis.llen(keys.hookHistoryOutbox(a.id))) === 0 &&
        (await ctx.redis.llen(keys.hookHistoryOutbox(hooks[1]!.id))) === 0,
      'the records to reach the database',
    );
    const dump = await redisText(ctx.redis, ctx.prefix);
    for (const text of ['+19995550001', '+19995550002', 'Kept Nowhere']) expect(dump).not.toContain(text);
    // Bull Board still lists the job, by id, with its outcome.
    const queue = new HookQueues(ctx.redis, keys).open(a.id);
    try {
      const [job] = await queue.getJobs(['completed']);
      expect(job?.id).toBe(id);
      expect(job?.returnvalue).toBe('delivered');
      expect(job?.data).toMatchObject({ hookId: a.id, event: { id, type: 'call_created', fields: {} } });
    } finally {
      await queue.close();
    }
  });
});
