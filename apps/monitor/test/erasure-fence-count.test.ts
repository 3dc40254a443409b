import type { HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Producer } from '@hookline/queue';
import type { Store } from '@hookline/store';
import type { SuspensionStore } from '@hookline/suspension';
import {
  keysMatching,
  startReceiver,
  usePostgres,
  useRedis,
  waitUntil,
  type Receiver,
} from '@hookline/testing';
import { countFenceErased } from '../src/erasures/erasure-steps';
import { callEvent as call, erasingMonitor, erasureDone, erasureStepsFor } from './erasure-support';
import { openPipeline } from './pipeline';

jest.setTimeout(60000);

// An erasure's counts include the events the fence erased for it (product.md §18: the record says how many
// records were erased). Two erasures of one account run one after the other: while the first waits for a
// slow request of its number, the worker reaches the second's waiting events and records them `erased` (the
// fence: never sent). The second erasure's own pass then finds nothing left, yet those events are its own.

const ctx = useRedis('erasure-fence-count');
const pg = usePostgres('erasure_fence_count');
const FIRST = '+15550101000';
const SECOND = '+15550101666';
let keys: RedisKeys;
let store: Store & SuspensionStore;
let producer: Producer;
let receiver: Receiver;
let hook: HookView;

describe('an erasure whose waiting events the fence erased before its own pass', () => {
  beforeEach(async () => {
    const p = await openPipeline(ctx, pg);
    ({ keys, store, producer } = p);
    // Each request takes 1.5 s: the events after the first wait behind it.
    receiver = ctx.closeLater(await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 1500 })));
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    hook = await store.hooks.create(
      account.id,
      { url: receiver.url('/slow'), format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    // The first erasure waits 3 s for deliveries begun before it: the worker reaches the second's events meanwhile.
    const monitor = erasingMonitor(store.erasures);
    p.run({
      deliveryTimeoutMs: 5000,
      monitor: { ...monitor, erasures: { ...monitor.erasures, settleMs: 3000 } },
    });
  });

  it('counts them (and removes their idempotency keys), once', async () => {
    const acct = hook.account_id;
    await producer.publish(acct, call('f1', FIRST, '+4420'));
    await receiver.waitFor(1);
    const waiting = [
      await producer.publish(acct, call('s1', SECOND, '+4421')),
      await producer.publish(acct, call('s2', SECOND, '+4422')),
    ];

    const one = await store.erasures.request(acct, { kind: 'number', value: FIRST }, 'operator');
    const two = await store.erasures.request(acct, { kind: 'number', value: SECOND }, 'operator');

    // The worker records both waiting events `erased` while the first erasure still runs: the second's own
    // pass has not begun.
    await waitUntil(async () => {
      const log = await store.deliveryLog.list(hook.id, 10);
      return waiting.every((e) => log.some((r) => r.event_id === e.id && r.outcome === 'erased'))
        ? true
        : undefined;
    }, 'the worker to record the waiting events erased');
    expect((await store.erasures.get(acct, one.id))?.state).toBe('running');

    const doneOne = await erasureDone(store.erasures, acct, one.id);
    const doneTwo = await erasureDone(store.erasures, acct, two.id);
    expect(doneTwo.counts).toEqual({
      history: 0,
      outboxes: 0,
      queued: 2,
      inbox: 0,
      retained: 0,
      idempotency: 2,
      hooks: 0,
    });
    // The first erasure's event was on the wire: its record is emptied, and counted there only.
    expect(doneOne.counts).toMatchObject({ queued: 0, idempotency: 1 });
    expect(doneOne.counts.history + doneOne.counts.outboxes).toBe(1);

    const activity = (await store.activity.list(acct, 50)).map((a) => a.detail).join('\n');
    expect(activity).toContain(`erasure ${two.id} done: 4 records erased (`);
    expect(
      receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id),
    ).toEqual(['f1']);
    // Nothing is left of them: no idempotency key, and no entry waiting to be counted.
    expect(await keysMatching(ctx.redis, keys.accountIdempotencyPattern(acct))).toEqual([]);
    expect(await ctx.redis.exists(keys.hookErasedByFence(hook.id))).toBe(0);
  });
});

describe("the fence's count, taken over mid-way", () => {
  it('counts each record once when a runner repeats the step after dying in it', async () => {
    // The steps alone, with no monitor running them too.
    const { deps, keys, store } = erasureStepsFor(ctx);
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    const hook = await store.hooks.create(
      account.id,
      { url: 'http://127.0.0.1:9/h', format: 'json' },
      'operator',
    );
    const acct = account.id;
    const target = { kind: 'number', value: SECOND } as const;
    const { id } = await store.erasures.request(acct, target, 'operator');
    // What the worker's finish script leaves for two events of the number and one of another number.
    const entry = (eventId: string, from: string) =>
      [eventId, ...store.erasureTags.ofEvent({ call_id: eventId, from, to: '+4420' })].join(' ');
    const fenced = keys.hookErasedByFence(hook.id);
    await ctx.redis.hset(fenced, 'evt_a', entry('evt_a', SECOND), 'evt_b', entry('evt_b', SECOND));
    await ctx.redis.hset(fenced, 'evt_c', entry('evt_c', FIRST));
    const input = { accountId: acct, erasureId: id, target };

    expect(await countFenceErased(deps, input)).toMatchObject({ place: 'queued', count: 2 });
    // A runner that died after counting, before the entry left the hook: the next one counts it again, once.
    await ctx.redis.hset(fenced, 'evt_a', entry('evt_a', SECOND));
    expect(await countFenceErased(deps, input)).toMatchObject({ count: 2 });
    expect([...(await store.erasures.events(acct, id))].sort()).toEqual(['evt_a', 'evt_b']);
    // Another erasure's event stays for it.
    expect(await ctx.redis.hkeys(fenced)).toEqual(['evt_c']);
  });
});
