import type { AttemptRecord, HookView, RecordedOutcome } from '@hookline/core';
import { appendOutcome, type StreamEntry } from '@hookline/queue';
import type { HookQueues, RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { Streaks } from './streaks';
import { Suspender } from './suspender';
import { suspensionForTest } from './test-support/suspension-for-test';

// The suspender fed by hand, as a monitor would feed it from the outcome stream, with the clock fixed.

const ctx = useRedis('suspender');
const MINUTE = 60_000;
const T0 = Date.parse('2026-11-20T10:11:12.000Z');
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: ReturnType<typeof suspensionForTest>['store'];
let hook: HookView;

beforeEach(async () => {
  ({ keys, hookQueues, store } = suspensionForTest(ctx));
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    { url: 'https://crm.example.com/hook', format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
});

function suspender(now: number): Suspender {
  return new Suspender({
    redis: ctx.redis,
    keys,
    store,
    streaks: new Streaks(ctx.redis, keys, { threshold: 5, windowMs: 10 * MINUTE }),
    log: { info: () => undefined, warn: () => undefined },
    clock: () => new Date(now),
    leaseMs: 30_000,
    hookQueues,
    holdMax: 10_000,
  });
}

/** What a worker leaves behind after an attempt: a delivery log line and an outcome stream entry. */
async function attempt(
  n: number,
  at: number,
  outcome: RecordedOutcome,
  extra: { status_code?: number; error?: string } = {},
): Promise<StreamEntry> {
  const eventId = `evt_${String(n).padStart(12, '0')}`;
  const record: AttemptRecord = {
    attempt_id: `att_${eventId.slice(4)}`,
    trigger: 'auto',
    account_id: hook.account_id,
    hook_id: hook.id,
    event_id: eventId,
    event_type: 'call_created',
    outcome,
    duration_ms: 5,
    attempted_at: new Date(at).toISOString(),
    ...extra,
  };
  await store.historyOutbox.append(hook.id, [record]);
  const id = await appendOutcome(ctx.redis, keys, {
    hookId: hook.id,
    accountId: hook.account_id,
    eventId,
    outcome,
    at,
    ...(extra.status_code !== undefined ? { statusCode: extra.status_code } : {}),
    ...(extra.error !== undefined ? { error: extra.error } : {}),
  });
  const [entry] = await ctx.redis.xrange(keys.outcomes(), id!, id!);
  return { id: entry![0], fields: entry![1] };
}

async function suspendAfter(last: { outcome: RecordedOutcome; status_code?: number; error?: string }) {
  const entries: StreamEntry[] = [];
  for (let i = 0; i < 4; i += 1)
    entries.push(await attempt(i, T0 + i * 3 * MINUTE, 'failed', { status_code: 500 }));
  const { outcome, ...extra } = last;
  entries.push(await attempt(4, T0 + 12 * MINUTE, outcome, extra));
  await suspender(T0 + 12 * MINUTE + 30_000).handle(entries);
  return (await store.hooks.get(hook.account_id, hook.id))!;
}

describe('suspender: the reason customers read', () => {
  it('is a plain sentence: how many failures, over how long, and what the last one was', async () => {
    const view = await suspendAfter({ outcome: 'failed', status_code: 503 });
    expect(view).toMatchObject({
      state: 'suspended',
      suspended_reason: '5 consecutive failures over 12 minutes; the last: the endpoint answered 503',
      // When it happened is a structured field, not part of the sentence.
      suspended_at: new Date(T0 + 12 * MINUTE + 30_000).toISOString(),
    });
    const [entry] = await store.activity.list(hook.account_id, 1);
    expect(entry).toMatchObject({ kind: 'hook.suspended', detail: view.suspended_reason });
  });

  it('carries no timestamp, error code or address, whatever the last failure was', async () => {
    const view = await suspendAfter({ outcome: 'error', error: 'ECONNREFUSED 203.0.113.7:443' });
    expect(view.suspended_reason).not.toMatch(ISO_TIME);
    expect(view.suspended_reason).not.toMatch(/ECONNREFUSED|203\.0\.113\.7/);
    expect(view.suspended_reason).toBe(
      '5 consecutive failures over 12 minutes; the last: the endpoint refused the connection',
    );
  });
});
