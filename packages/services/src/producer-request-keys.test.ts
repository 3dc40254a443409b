import { randomBytes } from 'node:crypto';
import type { DeliverableEvent, RequestKey } from '@hookline/core';
import { Producer, type DeliverJobData } from '@hookline/queue';
import { hookQueueLayout, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { useRedis } from '@hookline/testing';

// A request's Idempotency-Key (the API's test and send-again) is written by the script that accepts the event:
// a key given again queues nothing and answers the first request, also when that request died between the
// accept and its fan-out, and a key given with another request is a conflict.

const ctx = useRedis('request-keys');
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: Store;
let accountId: string;
let hookId: string;

const key = (fingerprint: string): RequestKey => ({ name: `resendDelivery:${'ab'.repeat(32)}`, fingerprint });
const event: DeliverableEvent = {
  id: 'evt_00000000000000000001',
  type: 'call_created',
  fields: { EventType: 'call_created', call_id: 'c1' },
};

const producer = () =>
  ctx.closeLater(new Producer({ redis: ctx.redis, keys, erasureTags: store.erasureTags }));

/** The attempt ids of the hook's queued jobs (a test's has none), oldest first. */
async function queuedAttempts(): Promise<(string | undefined)[]> {
  const queue = hookQueues.open(hookId);
  try {
    const jobs = await queue.getJobs(['waiting'], 0, -1, true);
    return jobs.map((job) => (job.data as DeliverJobData).attemptId);
  } finally {
    await queue.close();
  }
}

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  hookQueues = new HookQueues(ctx.redis, keys);
  store = createStore({ redis: ctx.redis, keys, secretBox: SecretBox.fromKey(randomBytes(32)), hookQueues });
  accountId = (await store.accounts.create({ name: 'Acme' })).id;
  const input = {
    url: 'https://hooks.example.com/a',
    format: 'json' as const,
    auth: { scheme: 'none' as const },
  };
  hookId = (await store.hooks.create(accountId, input, 'operator')).id;
});

describe("a request's key", () => {
  it('answers a send-again given again with its first attempt id, queuing nothing more', async () => {
    const p = producer();
    const first = await p.resend(accountId, hookId, event, 'att_first000000', 'manual', undefined, {
      requestKey: key('aa'),
    });
    expect(first).toEqual({ attemptId: 'att_first000000', duplicate: false });
    const again = await p.resend(accountId, hookId, event, 'att_second00000', 'manual', undefined, {
      requestKey: key('aa'),
    });
    expect(again).toEqual({ attemptId: 'att_first000000', duplicate: true });
    expect(await queuedAttempts()).toEqual(['att_first000000']);
  });

  it('completes the fan-out of a first request that died after its accept, once, and answers it', async () => {
    // The accept's own adds fail on a broken queue: the accept writes the key and an inbox entry, and the
    // fan-out that follows fails too, as if the process had died there.
    const counter = hookQueueLayout(keys, hookId).jobCounter;
    await ctx.redis.set(counter, 'not-a-number');
    const p = producer();
    await expect(
      p.resend(accountId, hookId, event, 'att_first000000', 'manual', undefined, { requestKey: key('aa') }),
    ).rejects.toThrow();
    await ctx.redis.del(counter);
    const retry = await p.resend(accountId, hookId, event, 'att_second00000', 'manual', undefined, {
      requestKey: key('aa'),
    });
    expect(retry).toEqual({ attemptId: 'att_first000000', duplicate: true });
    expect(await queuedAttempts()).toEqual(['att_first000000']);
  });

  it('refuses a key given with another request: IDEMPOTENCY_CONFLICT, nothing queued', async () => {
    const p = producer();
    await p.resend(accountId, hookId, event, 'att_first000000', 'manual', undefined, {
      requestKey: key('aa'),
    });
    await expect(
      p.resend(accountId, hookId, event, 'att_second00000', 'manual', undefined, { requestKey: key('bb') }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    await expect(p.publishTest(accountId, hookId, { requestKey: key('bb') })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
    expect(await queuedAttempts()).toEqual(['att_first000000']);
  });

  it('answers a test given again with its first event id, queuing nothing more', async () => {
    const p = producer();
    const testKey = { name: `testHook:${'cd'.repeat(32)}`, fingerprint: 'aa' };
    const first = await p.publishTest(accountId, hookId, { requestKey: testKey });
    expect(first).toEqual({ id: expect.stringMatching(/^evt_/), duplicate: false });
    expect(await p.publishTest(accountId, hookId, { requestKey: testKey })).toEqual({
      ...first,
      duplicate: true,
    });
    expect(await queuedAttempts()).toEqual([undefined]);
  });
});
