import { encodePagePosition, type HookView } from '@hookline/core';
import { HookJobAdder, HookQueues, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { Store } from './create-store';
import { decodeHeldCursor } from './held-events';
import { decodeHookCursor } from './hook-page';
import { storeForTest } from './test-support/store-for-test';

// A suspended hook's held events as the website and the API show them: in delivery order, with kind, time and
// call id, except the call id of an event an erasure reaches while the erasure runs.
const ctx = useRedis('store-held');
const T0 = Date.UTC(2026, 10, 24, 9);
let keys: RedisKeys;
let store: Store;
let hook: HookView;
let adder: HookJobAdder;

beforeEach(async () => {
  ({ store, keys } = storeForTest(ctx));
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(account.id, { url: 'https://example.com/in', format: 'json' }, 'test');
  await new HookQueues(ctx.redis, keys).pause(hook.id);
  adder = new HookJobAdder(ctx.redis, keys);
});

/** Holds an event as the producer queues it (its job data), accepted `n` seconds after T0. */
async function hold(n: number, fields: Record<string, string>, data: Record<string, unknown> = {}) {
  const id = `evt_00000000${n}`;
  await adder.add(
    hook.id,
    'deliver.v1',
    {
      accountId: hook.account_id,
      hookId: hook.id,
      event: { id, type: 'call_created', fields },
      acceptedAt: T0 + n * 1000,
      ...data,
    },
    { jobId: id, attempts: 1, deduplication: { id, ttl: 60_000 } },
  );
  return id;
}

const call = (callId: string, from = '+111') => ({
  EventType: 'call_created',
  call_id: callId,
  from,
  to: '+222',
});

describe('held events', () => {
  it('are listed in delivery order by position and by cursor, with their kind, time and call id', async () => {
    for (let n = 1; n <= 3; n++) await hold(n, call(`c-${n}`));
    const first = await store.held.page(hook.id, { from: 0 }, 2);
    expect(first).toEqual({
      data: [
        {
          event_id: 'evt_000000001',
          type: 'call_created',
          accepted_at: new Date(T0 + 1000).toISOString(),
          call_id: 'c-1',
        },
        {
          event_id: 'evt_000000002',
          type: 'call_created',
          accepted_at: new Date(T0 + 2000).toISOString(),
          call_id: 'c-2',
        },
      ],
      next_cursor: expect.any(String),
      from: 0,
      total: 3,
    });
    const cursor = decodeHeldCursor(first.next_cursor!)!;
    expect(cursor).toEqual({ at: new Date(T0 + 2000), id: 'evt_000000002' });
    const second = await store.held.page(hook.id, { cursor }, 2);
    expect(second).toEqual({
      data: [expect.objectContaining({ event_id: 'evt_000000003', call_id: 'c-3' })],
      from: 2,
      total: 3,
    });
    expect(await store.held.count(hook.id)).toBe(3);
  });

  it('show the first field of a kind without call_id, and a job without a readable event as unknown', async () => {
    await hold(1, { EventType: 'sms_sent', message_id: 'm-1' });
    await adder.add(
      hook.id,
      'deliver.v1',
      { erased: true },
      {
        jobId: 'evt_000000009',
        attempts: 1,
        deduplication: { id: 'evt_000000009', ttl: 60_000 },
      },
    );
    const { data } = await store.held.page(hook.id, { from: 0 }, 10);
    expect(data[0]).toMatchObject({ event_id: 'evt_000000001', call_id: 'm-1' });
    expect(data[1]).toEqual({ event_id: 'evt_000000009', type: 'unknown', accepted_at: expect.any(String) });
  });

  it('leave out the call id of an event a running erasure reaches, and of no other', async () => {
    await hold(1, call('c-1'));
    await hold(2, call('c-2', '+15550100'));
    await hold(3, call('c-3'));
    await store.erasures.request(hook.account_id, { kind: 'number', value: '+15550100' }, 'operator');
    await store.erasures.request(hook.account_id, { kind: 'call_id', value: 'c-3' }, 'operator');
    const { data } = await store.held.page(hook.id, { from: 0 }, 10);
    expect(data.map((e) => [e.event_id, e.call_id])).toEqual([
      ['evt_000000001', 'c-1'],
      ['evt_000000002', undefined],
      ['evt_000000003', undefined],
    ]);
    expect(JSON.stringify(data)).not.toMatch(/c-2|c-3|15550100/);
  });

  it('take only cursors a page gave', () => {
    for (const text of ['', 'nope', Buffer.from('2026-11-24T09:00:00.000Z').toString('base64url')])
      expect(decodeHeldCursor(text)).toBeUndefined();
  });

  it("take no other list's cursor, though an event may be named like a hook", () => {
    const hooksCursor = encodePagePosition('2026-11-24T09:00:00.000Z', 'hk_0123456789abcdef');
    expect(decodeHookCursor(hooksCursor)).toBeDefined();
    expect(decodeHeldCursor(hooksCursor)).toBeUndefined();
    const heldCursor = encodePagePosition('2026-11-24T09:00:00.000Z', 'hk_0123456789abcdef', 'held');
    expect(decodeHeldCursor(heldCursor)).toEqual({
      at: new Date('2026-11-24T09:00:00.000Z'),
      id: 'hk_0123456789abcdef',
    });
    expect(decodeHookCursor(heldCursor)).toBeUndefined();
  });
});
