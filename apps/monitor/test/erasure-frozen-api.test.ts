import { randomBytes } from 'node:crypto';
import type { DeliverableEvent } from '@hookline/core';
import { DeliveryLog, HistoryReader, openHistory } from '@hookline/history';
import { createInboxFanOut, FANOUT_FENCED_AFTER_MS } from '@hookline/queue';
import { hookQueueLayout, HistoryOutbox, HookQueues, redisKeys, StaleFanOutError } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger } from '@hookline/telemetry';
import { usePostgres, useRedis, waitUntil } from '@hookline/testing';
import { startMonitor } from '../src';

jest.setTimeout(60000);

// An API process accepts an event, then freezes before queuing it; an erasure of the event's number is
// accepted and runs to the end meanwhile. When the process wakes, the event must not reach any hook: its
// inbox entry went with the erasure's first pass, and its fan-out is refused once it read the entry
// FANOUT_FENCED_AFTER_MS ago — which the erasure waits at least before its second pass (erasureSettleMs), so
// a fan-out that wakes later than that finds a stale read. Here the erasure's wait is short and the fan-out
// is handed its read as it would be after the real wait.

const ctx = useRedis('erasure-frozen-api');
const pg = usePostgres('erasure_frozen_api');
const NUMBER = '+15550100777';

it('an event accepted before the erasure by an API process that froze is never queued after it', async () => {
  const keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
  const outbox = new HistoryOutbox(ctx.redis, keys);
  const base = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
  });
  const store = {
    ...base,
    deliveryLog: new DeliveryLog(
      outbox,
      new HistoryReader(history.client, outbox, (id) => base.hooks.listIds(id)),
    ),
    historyOutbox: outbox,
  };
  const account = await store.accounts.create({ name: 'Acme Telecom' });
  const hookId = (
    await store.hooks.create(
      account.id,
      { url: 'https://hooks.example.com/a', format: 'json', auth: { scheme: 'none' } },
      'operator',
    )
  ).id;

  // The API process: the event is accepted (its inbox entry written), then the process freezes.
  const frozen = createInboxFanOut({ redis: ctx.redis, keys });
  const event: DeliverableEvent = {
    id: 'evt_frozen',
    type: 'call_created',
    fields: { call_id: 'c-frozen', direction: 'inbound', from: NUMBER, to: '+15550100000', rate: '0.0' },
  };
  const acceptance = await frozen.inbox.accept({
    accountId: account.id,
    event,
    acceptedAt: Date.now(),
    idempotencyTtlSeconds: 60,
    graceMs: 60_000,
    maxAbandoned: 0,
  });
  if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');

  const monitor = startMonitor({
    redis: ctx.redis,
    keys,
    store,
    history,
    logger: createLogger('silent', 'test-monitor'),
    config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 100, HOOKLINE_SUSPEND_AFTER_MS: 60_000 },
    blockMs: 100,
    historyTimings: { idleMs: 50, holdMs: 2000 },
    erasures: { erasures: store.erasures, settleMs: 300, pollMs: 100 },
  });
  ctx.onCleanup(() => monitor.close());
  const { id } = await store.erasures.request(account.id, { kind: 'number', value: NUMBER }, 'operator');
  await waitUntil(
    async () => (await store.erasures.get(account.id, id))?.state === 'done',
    'the erasure to be done',
  );
  expect(await ctx.redis.xlen(keys.accountInbox(account.id))).toBe(0);

  // The process wakes after the fence came down, its read of the entry as old as the erasure's least wait.
  const woken = { ...acceptance.entry, readAt: acceptance.entry.readAt - FANOUT_FENCED_AFTER_MS };
  await expect(frozen.fanOut.deliver(account.id, woken)).rejects.toBeInstanceOf(StaleFanOutError);
  const layout = hookQueueLayout(keys, hookId);
  expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual([]);
  expect(await ctx.redis.exists(`${layout.jobPrefix}${event.id}`)).toBe(0);
});
