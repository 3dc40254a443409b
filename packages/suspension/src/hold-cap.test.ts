import { hookQueueLayout } from '@hookline/redis';
import { SAMPLE_CALL_DATA, type HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { createHoldCap } from './hold-cap';
import type { HookQueues } from '@hookline/redis';
import type { DeliverJobData } from '@hookline/queue';
import { Producer } from '@hookline/queue';
import { suspensionForTest } from './test-support/suspension-for-test';

const ctx = useRedis('hold-cap');
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: ReturnType<typeof suspensionForTest>['store'];
let hook: HookView;

beforeEach(async () => {
  ({ keys, hookQueues, store } = suspensionForTest(ctx));
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    { url: 'https://example.com/hook', format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
});

function producerWithCap(holdMax: number): Producer {
  const cap = createHoldCap({ hookQueues, outbox: store.historyOutbox });
  return ctx.closeLater(
    new Producer({
      redis: ctx.redis,
      keys,
      erasureTags: store.erasureTags,
      onHeld: (hookIds) => Promise.all(hookIds.map((id) => cap(id, holdMax))),
    }),
  );
}

async function publish(producer: Producer, callIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const call_id of callIds)
    ids.push(
      (
        await producer.publish(hook.account_id, {
          type: 'call_created',
          data: { ...SAMPLE_CALL_DATA, call_id },
        })
      ).id,
    );
  return ids;
}

async function heldCallIds(): Promise<string[]> {
  const queue = ctx.closeLater(hookQueues.open(hook.id));
  // Oldest first: the order the hook receives them in.
  const jobs = await queue.getWaiting();
  return jobs.map((job) => (job.data as DeliverJobData).event.fields.call_id!);
}

describe('hold cap', () => {
  it('keeps the newest HOOKLINE_HOLD_MAX events of a suspended hook and records the oldest as expired', async () => {
    await hookQueues.pauseOnce(hook.id);
    const producer = producerWithCap(3);
    const eventIds = await publish(producer, ['c1', 'c2', 'c3', 'c4', 'c5']);

    expect(await heldCallIds()).toEqual(['c3', 'c4', 'c5']);
    const log = await store.deliveryLog.list(hook.id, 10);
    expect(log.map((r) => [r.event_id, r.outcome])).toEqual([
      [eventIds[1], 'expired'],
      [eventIds[0], 'expired'],
    ]);
    expect(log[0]).toMatchObject({ event_type: 'call_created', duration_ms: 0 });
    // The dropped jobs are gone from Redis, not only from the list.
    expect(await ctx.redis.exists(hookQueueLayout(keys, hook.id).jobPrefix + eventIds[0]!)).toBe(0);
  });

  it('records a dropped send-again under the attempt id its request answered', async () => {
    await hookQueues.pauseOnce(hook.id);
    const producer = producerWithCap(1);
    const [first] = await publish(producer, ['c1']);
    const event = { id: first!, type: 'call_created', fields: { EventType: 'call_created', call_id: 'c1' } };
    // A send-again of c1 joins the tail, held; the next event pushes it out past the cap.
    await producer.resend(hook.account_id, hook.id, event, 'att_0000resend00000000000000', 'manual');
    await publish(producer, ['c2']);

    expect(await heldCallIds()).toEqual(['c2']);
    const log = await store.deliveryLog.list(hook.id, 10);
    expect(log.map((r) => [r.attempt_id.startsWith('att_'), r.trigger, r.outcome])).toContainEqual([
      true,
      'manual',
      'expired',
    ]);
    expect(log.find((r) => r.trigger === 'manual')?.attempt_id).toBe('att_0000resend00000000000000');
  });

  it('records a dropped event in the trace of its publish', async () => {
    await hookQueues.pauseOnce(hook.id);
    const producer = producerWithCap(1);
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await producer.publish(
      hook.account_id,
      { type: 'call_created', data: { ...SAMPLE_CALL_DATA, call_id: 'traced' } },
      { trace: { traceparent } },
    );
    await publish(producer, ['c2']);
    const [record] = await store.deliveryLog.list(hook.id, 10);
    expect(record).toMatchObject({ outcome: 'expired', call_id: 'traced' });
    const stored = JSON.parse((await ctx.redis.lrange(keys.hookHistoryOutbox(hook.id), 0, -1))[0]!) as {
      trace_id?: string;
    };
    expect(stored.trace_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('drops nothing from an active hook, however many events wait', async () => {
    const producer = producerWithCap(2);
    await publish(producer, ['c1', 'c2', 'c3', 'c4']);
    const cap = createHoldCap({ hookQueues, outbox: store.historyOutbox });
    expect(await cap(hook.id, 2)).toBe(0);
    expect(await heldCallIds()).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(await store.deliveryLog.list(hook.id, 10)).toEqual([]);
  });

  it('records each dropped event once when several producers enforce the cap at the same time', async () => {
    await publish(producerWithCap(100), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
    await hookQueues.pauseOnce(hook.id);
    const cap = createHoldCap({ hookQueues, outbox: store.historyOutbox });
    const dropped = await Promise.all([cap(hook.id, 2), cap(hook.id, 2), cap(hook.id, 2)]);

    expect(dropped.reduce((a, b) => a + b, 0)).toBe(6);
    expect(await heldCallIds()).toEqual(['c7', 'c8']);
    const log = await store.deliveryLog.list(hook.id, 20);
    expect(log).toHaveLength(6);
    expect(new Set(log.map((r) => r.event_id)).size).toBe(6);
  });
});
