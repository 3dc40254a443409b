import { randomBytes } from 'node:crypto';
import type { DeliverableEvent, PublishEventInput } from '@hookline/core';
import { InboxRecovery, Producer, type DeliverJobData } from '@hookline/queue';
import { hookQueueLayout, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { useRedis } from '@hookline/testing';

// The W3C trace context a producer gives travels with its event into every hook's job (the inbox entry in
// between), so each attempt joins the producer's trace; without an exporter hookline adds no span of its own
// and passes the producer's context on as given. (With an exporter: apps/hookline/test/fleet/tracing.test.ts.)

const ctx = useRedis('producer-trace');
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
let keys: RedisKeys;
let hookQueues: HookQueues;
let accountId: string;
let hookIds: string[];
let store: Store;

const event = (callId: string): PublishEventInput => ({
  type: 'call_created',
  data: { call_id: callId, direction: 'outbound', from: 'a', from_cnam: 'A', to: 'b', rate: '0.0' },
});

const producer = (graceMs?: number) =>
  ctx.closeLater(
    new Producer({
      redis: ctx.redis,
      keys,
      erasureTags: store.erasureTags,
      ...(graceMs !== undefined ? { recoveryGraceMs: graceMs } : {}),
    }),
  );

async function jobs(hookId: string): Promise<DeliverJobData[]> {
  const queue = hookQueues.open(hookId);
  try {
    return (await queue.getJobs(['waiting'], 0, -1, true)).map((job) => job.data as DeliverJobData);
  } finally {
    await queue.close();
  }
}

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  hookQueues = new HookQueues(ctx.redis, keys);
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
  });
  accountId = (await store.accounts.create({ name: 'Acme' })).id;
  hookIds = [];
  for (const path of ['/a', '/b'])
    hookIds.push(
      (
        await store.hooks.create(
          accountId,
          { url: `https://hooks.example.com${path}`, format: 'json', auth: { scheme: 'none' } },
          'operator',
        )
      ).id,
    );
});

it("carries the producer's traceparent and tracestate into every hook's job, in version-00 form", async () => {
  await producer().publish(accountId, event('c1'), {
    trace: { traceparent: `01-${TRACE}-00f067aa0ba902b7-01-later`, tracestate: 'rojo=1, congo=2' },
  });
  for (const hookId of hookIds)
    expect(await jobs(hookId)).toEqual([
      expect.objectContaining({ traceparent: PARENT, tracestate: 'rojo=1,congo=2' }),
    ]);
});

it('ignores a malformed traceparent (the event is queued, without a trace), and a bad tracestate alone', async () => {
  await producer().publish(accountId, event('c1'), {
    trace: { traceparent: '00-nonsense', tracestate: 'a=1' },
  });
  await producer().publish(accountId, event('c2'), { trace: { traceparent: PARENT, tracestate: 'Bad=1' } });
  const [first, second] = await jobs(hookIds[0]!);
  expect(first?.event.fields.call_id).toBe('c1');
  expect(first).not.toHaveProperty('traceparent');
  expect(first).not.toHaveProperty('tracestate');
  expect(second).toMatchObject({ traceparent: PARENT });
  expect(second).not.toHaveProperty('tracestate');
});

it('keeps the trace when an interrupted fan-out is completed by recovery', async () => {
  const [, broken] = hookIds as [string, string];
  await ctx.redis.set(hookQueueLayout(keys, broken).jobCounter, 'not-a-number');
  await expect(
    producer().publish(accountId, event('c1'), { trace: { traceparent: PARENT } }),
  ).rejects.toThrow();
  await ctx.redis.del(hookQueueLayout(keys, broken).jobCounter);
  expect(await ctx.closeLater(new InboxRecovery({ redis: ctx.redis, keys, graceMs: 0 })).run()).toBe(1);
  expect(await jobs(broken)).toEqual([expect.objectContaining({ traceparent: PARENT })]);
});

it('queues a send-again in the trace of the attempt it sends again', async () => {
  const again: DeliverableEvent = {
    id: 'evt_000000000000000000000001',
    type: 'call_created',
    fields: { EventType: 'call_created', call_id: 'c9' },
  };
  await producer().resend(accountId, hookIds[0]!, again, 'att_0000000001', 'manual', { traceparent: PARENT });
  expect(await jobs(hookIds[0]!)).toEqual([
    expect.objectContaining({ attemptId: 'att_0000000001', trigger: 'manual', traceparent: PARENT }),
  ]);
});
