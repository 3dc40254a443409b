import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { ConfigError } from '@hookline/config';
import { SAMPLE_CALL_DATA, type HookView, type PublishEventInput } from '@hookline/core';
import type { DeliverJobData } from '@hookline/queue';
import { HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { keysMatching, useRedis } from '@hookline/testing';
import { createProducer, type InProcessProducer } from './in-process-producer';

// The producer a service publishes with in-process, built from the settings as the fleet reads them: the same
// account check, hold cap and errors as the HTTP tier, against a real Redis.

const ctx = useRedis('in-process-producer');
const secretKey = randomBytes(32).toString('hex');
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: Store;
let hook: HookView;

const event = (call_id: string, id?: string): PublishEventInput => ({
  type: 'call_created',
  ...(id ? { id } : {}),
  data: { ...SAMPLE_CALL_DATA, call_id },
});

function producer(more: Record<string, string> = {}): InProcessProducer {
  return ctx.closeLater(
    createProducer({
      REDIS_URL: 'redis://127.0.0.1:6379',
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: secretKey,
      ...more,
    }),
  );
}

/** The call ids of the jobs waiting in the hook's queue, oldest first, with their event ids. */
async function waiting(): Promise<{ callId: string; eventId: string }[]> {
  const queue = ctx.closeLater(hookQueues.open(hook.id));
  const jobs = await queue.getWaiting();
  return jobs.map((job) => {
    const { event } = job.data as DeliverJobData;
    return { callId: String(event.fields.call_id), eventId: event.id };
  });
}

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  hookQueues = new HookQueues(ctx.redis, keys);
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(Buffer.from(secretKey, 'hex')),
    hookQueues,
  });
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    { url: 'https://hooks.example.com/a', format: 'json', auth: { scheme: 'none' } },
    'operator',
  );
});

describe('createProducer', () => {
  it("queues a published event on the account's hooks, as an HTTP publish does", async () => {
    const answer = await producer().publish(hook.account_id, event('c1', 'pbx-1'));
    expect(answer).toEqual({ id: expect.stringMatching(/^evt_/), hooks: [hook.id], duplicate: false });
    expect(await waiting()).toEqual([{ callId: 'c1', eventId: answer.id }]);
    // The idempotency key holds: the same id again is the same event, queued once.
    expect(await producer().publish(hook.account_id, event('c1', 'pbx-1'))).toEqual({
      ...answer,
      duplicate: true,
    });
    expect(await waiting()).toHaveLength(1);
  });

  it('refuses an unknown account with NOT_FOUND and writes nothing', async () => {
    const before = (await keysMatching(ctx.redis, `${ctx.prefix}:*`)).sort();
    await expect(producer().publish('acct_doesnotexist000000', event('c1', 'pbx-1'))).rejects.toMatchObject({
      name: 'HooklineError',
      code: 'NOT_FOUND',
      status: 404,
      message: 'Account not found',
    });
    expect((await keysMatching(ctx.redis, `${ctx.prefix}:*`)).sort()).toEqual(before);
  });

  it('keeps only HOOKLINE_HOLD_MAX held events of a suspended hook, the newest', async () => {
    await hookQueues.pauseOnce(hook.id);
    const p = producer({ HOOKLINE_HOLD_MAX: '2' });
    for (const callId of ['c1', 'c2', 'c3', 'c4']) await p.publish(hook.account_id, event(callId));
    expect((await waiting()).map((job) => job.callId)).toEqual(['c3', 'c4']);
  });

  it('answers REDIS_UNAVAILABLE, as the API does, when nothing listens on the Redis port', async () => {
    const p = producer({ REDIS_URL: 'redis://127.0.0.1:18917' });
    // A deadline far beyond the test's own: the answer is the outage, not the deadline.
    await expect(p.publish(hook.account_id, event('c1'), { timeoutMs: 60_000 })).rejects.toMatchObject({
      name: 'HooklineError',
      code: 'REDIS_UNAVAILABLE',
      status: 503,
      message: 'The service cannot reach Redis, its queue store; retry shortly',
    });
  });

  it('settles with REDIS_UNAVAILABLE when Redis accepts connections and never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(18918, '127.0.0.1', resolve));
    ctx.onCleanup(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const p = producer({ REDIS_URL: 'redis://127.0.0.1:18918' });
    await expect(p.publish(hook.account_id, event('c1'), { timeoutMs: 500 })).rejects.toMatchObject({
      name: 'HooklineError',
      code: 'REDIS_UNAVAILABLE',
    });
  });

  it('refuses to start without HOOKLINE_SECRET_KEY, naming it', () => {
    expect(() =>
      createProducer({ REDIS_URL: 'redis://127.0.0.1:6379', HOOKLINE_QUEUE_PREFIX: ctx.prefix }),
    ).toThrow(new ConfigError(['HOOKLINE_SECRET_KEY: is required for the producer process']));
  });
});
