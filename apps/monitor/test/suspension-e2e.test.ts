import { type HookView } from '@hookline/core';
import type { HistoryStore } from '@hookline/history';
import type { Producer } from '@hookline/queue';
import type { HookQueues, RedisKeys } from '@hookline/redis';
import type { HookControl } from '@hookline/suspension';
import { startReceiver, usePostgres, useRedis, waitUntil, type Receiver } from '@hookline/testing';
import { openPipeline, type Pipeline } from './pipeline';

// The whole path with the real worker: a failing hook is suspended by the monitor, the attempt in flight
// finishes, nothing else is sent, held events wait (within the cap) and go out in order on re-enable.

const ctx = useRedis('suspension-e2e');
const pg = usePostgres('suspension');
const HOLD_MAX = 5;
let keys: RedisKeys;
let store: Pipeline['store'];
let history: HistoryStore;
let hookQueues: HookQueues;
let control: HookControl;
let producer: Producer;
let receiver: Receiver;
let hook: HookView;
let failing: boolean;

beforeEach(async () => {
  const p = await openPipeline(ctx, pg, { holdMax: HOLD_MAX });
  ({ keys, store, history, hookQueues, control, producer } = p);
  // Slow failures while `failing`, so an attempt is in flight when the monitor acts.
  failing = true;
  receiver = ctx.closeLater(
    await startReceiver(() =>
      failing ? { kind: 'status', status: 500, delayMs: 150 } : { kind: 'status', status: 200 },
    ),
  );
  const account = await store.accounts.create({ name: 'Acme Telecom' });
  hook = await store.hooks.create(
    account.id,
    { url: receiver.url(), format: 'json', auth: { scheme: 'none' }, description: 'CRM' },
    'operator',
  );
  p.run({
    deliveryTimeoutMs: 15000,
    monitor: {
      config: {
        HOOKLINE_SUSPEND_AFTER_FAILURES: 3,
        HOOKLINE_SUSPEND_AFTER_MS: 200,
        HOOKLINE_HOLD_MAX: HOLD_MAX,
      },
    },
  });
});

async function publish(...callIds: string[]): Promise<void> {
  const data = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };
  for (const call_id of callIds)
    await producer.publish(hook.account_id, { type: 'call_created', data: { ...data, call_id } });
}

const callIds = () =>
  receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id);
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `c${from + i}`);

/** Publishes `count` events and fails the hook until the monitor suspends it; returns how many reached it. */
async function failUntilSuspended(count = 8): Promise<number> {
  await publish(...numbered(1, count));
  // The reason on the hook, then the account's activity entry: recordSuspension writes them one after the
  // other (the hook's and the account's keys are in different slots of a cluster).
  await waitUntil(
    async () =>
      (await store.hooks.get(hook.account_id, hook.id))?.suspended_reason !== undefined &&
      (await store.activity.list(hook.account_id, 50)).some((e) => e.kind === 'hook.suspended')
        ? true
        : undefined,
    'the monitor to suspend the hook and record it in the activity',
  );
  // The attempt in flight at the suspension finishes and is recorded; then the worker lets go of the hook.
  const attempts = async () =>
    (await store.deliveryLog.list(hook.id, 50)).filter((r) => r.outcome !== 'expired');
  await waitUntil(
    async () => (await attempts()).length === receiver.requests.length,
    'every attempt that reached the hook to be recorded',
  );
  await waitUntil(
    async () => (await ctx.redis.zscore(keys.hookLeases(), hook.id)) === null,
    'the worker to let go of the hook',
  );
  const sent = receiver.requests.length;
  expect(receiver.requests.every((r) => r.finishedAt !== undefined)).toBe(true);
  expect((await attempts()).every((r) => r.outcome === 'failed')).toBe(true);
  expect(callIds()).toEqual(numbered(1, sent));
  expect(await hookQueues.waitingCount(hook.id)).toBe(Math.min(HOLD_MAX, count - sent));
  return sent;
}

describe('suspension end to end, with the real worker', () => {
  it('suspends a failing hook, sends nothing more, and delivers held events in order after enable(deliver)', async () => {
    const sent = await failUntilSuspended();
    // The third failure suspends the hook (its first is more than 200 ms old by then): nothing leaves after it,
    // not even in the moment before the monitor reads it (the worker's outcome script paused the queue).
    expect(sent).toBe(3);
    // The monitor records the suspension the worker made, once, with its reason; the warning at half the
    // threshold (2 of 3) comes first and describes the streak as it stood then.
    const activity = (await store.activity.list(hook.account_id, 50)).reverse();
    const streak = activity.filter((e) => e.kind === 'hook.failing' || e.kind === 'hook.suspended');
    expect(streak).toEqual([
      expect.objectContaining({
        kind: 'hook.failing',
        detail: expect.stringMatching(/^2 consecutive failures/),
      }),
      expect.objectContaining({ kind: 'hook.suspended', hook_id: hook.id, actor: 'monitor' }),
    ]);
    await publish('c9', 'c10');
    expect(await hookQueues.waitingCount(hook.id)).toBe(Math.min(HOLD_MAX, 10 - sent));
    expect(receiver.requests).toHaveLength(sent);

    failing = false;
    const view = await control.enable(hook.account_id, hook.id, 'deliver', `customer:${hook.account_id}`);
    expect(view?.hook.state).toBe('active');
    const held = numbered(sent + 1, 10).slice(-HOLD_MAX);
    await receiver.waitFor(sent + held.length);
    expect(callIds().slice(sent)).toEqual(held);
    // Past the cap, the oldest held events were dropped and recorded, never sent.
    const expired = (await store.deliveryLog.list(hook.id, 50)).filter((r) => r.outcome === 'expired');
    expect(expired).toHaveLength(10 - sent - held.length);

    // The monitor's history writer moves every record to PostgreSQL, each with the request exactly as sent.
    await waitUntil(
      async () =>
        (await store.deliveryLog.list(hook.id, 50)).length === 10 &&
        (await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) === 0,
      'the history writer to move every record to the database',
    );
    const rows = await history.client.query<{ outcome: string; request_body: string | null }>(
      'SELECT outcome, request_body FROM attempts WHERE hook_id = $1',
      [hook.id],
    );
    expect(rows).toHaveLength(10);
    const bodies = (list: (string | null)[]) => list.filter((b): b is string => b !== null).sort();
    expect(bodies(rows.map((r) => r.request_body))).toEqual(
      bodies(receiver.requests.map((r) => r.body.toString())),
    );
  });

  it('caps the events queued before the suspension at HOOKLINE_HOLD_MAX when it suspends, with no publish after', async () => {
    // 12 events queued while the hook is active: the 3 failures that suspend it are sent, 9 are left held.
    const sent = await failUntilSuspended(12);
    expect(sent).toBe(3);
    // Right after the suspension (checked in failUntilSuspended), not at the next publish: the newest
    // HOOKLINE_HOLD_MAX stay held, the oldest are recorded expired, each once, and were never sent.
    const held = numbered(sent + 1, 12).slice(-HOLD_MAX);
    const expired = (await store.deliveryLog.list(hook.id, 50)).filter((r) => r.outcome === 'expired');
    expect(expired.map((r) => r.call_id).reverse()).toEqual(numbered(sent + 1, 12 - HOLD_MAX));

    failing = false;
    const view = await control.enable(hook.account_id, hook.id, 'deliver', `customer:${hook.account_id}`);
    expect(view).toMatchObject({ changed: true, queued: HOLD_MAX });
    await receiver.waitFor(sent + HOLD_MAX);
    await publish('after');
    await receiver.waitFor(sent + HOLD_MAX + 1);
    // Only the kept events went out, in order, then the next one: none of the expired.
    expect(callIds().slice(sent)).toEqual([...held, 'after']);
  });

  it('records held events as discarded after enable(discard) and sends none of them', async () => {
    const sent = await failUntilSuspended();
    failing = false;
    await control.enable(hook.account_id, hook.id, 'discard', 'operator');
    const discarded = (await store.deliveryLog.list(hook.id, 50)).filter((r) => r.outcome === 'discarded');
    expect(discarded).toHaveLength(8 - sent);
    await publish('after');
    await receiver.waitFor(sent + 1);
    expect(callIds().slice(sent)).toEqual(['after']);
  });
});
