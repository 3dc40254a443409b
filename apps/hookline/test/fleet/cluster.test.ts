import { randomBytes } from 'node:crypto';
import type { HookView } from '@hookline/core';
import { hookQueueLayout, createFailFastRedis } from '@hookline/redis';
import { createServices } from '@hookline/services';
import { figuresFromHash } from '@hookline/scheduler';
import { readStreak } from '@hookline/suspension';
import { startReceiver, waitUntil, type Receiver } from '@hookline/testing';
import { useClusterHookline } from './cluster-harness';
import { SAMPLE } from './harness';

// hookline unchanged on a Redis Cluster of three masters: every hook's keys share the hook's hash tag, so
// hooks spread over the shards, and no script or transaction spans two of them. The one-in-flight rule, the
// order and the all-or-none fan-out hold there as on one Redis.

const callIds = (receiver: Receiver) =>
  receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id);

describe('on a Redis Cluster', () => {
  const h = useClusterHookline();

  it('delivers 50 events to a slow endpoint one at a time, in publish order', async () => {
    // The first answer is a 500: a failure for the monitor to count, which the 49 successes then end.
    const receiver = await startReceiver((_req, index) => ({
      kind: 'status',
      status: index === 0 ? 500 : 200,
      delayMs: 50,
    }));
    h.onCleanup(() => receiver.close());
    const account = await h.store.accounts.create({ name: 'Acme' });
    const hook = await h.hook(account.id, receiver.url());
    // Two workers in this process and one more process, all attached to the cluster; and the monitor.
    h.startMonitor();
    h.startWorker();
    h.startWorker();
    await h.spawnWorker().waitForOutput('worker started');
    const published: string[] = [];
    for (let i = 0; i < 50; i++) {
      published.push(`call-${i}`);
      await h.publish(account.id, `call-${i}`);
    }
    await receiver.waitFor(50, 30_000);
    expect(receiver.maxInFlight).toBe(1);
    expect(callIds(receiver)).toEqual(published);
    const log = await waitUntil(async () => {
      const l = await h.store.deliveryLog.list(hook.id, 100);
      return l.length === 50 ? l : undefined;
    }, 'all 50 outcomes');
    expect(log.map((r) => r.outcome)).toEqual([...Array<string>(49).fill('delivered'), 'failed']);
    // The monitor's history writer drains the outboxes on their shards into PostgreSQL.
    await waitUntil(
      async () =>
        (await h.redis.llen(h.keys.hookHistoryOutbox(hook.id))) === 0 &&
        (await h.history.client.query('SELECT 1 FROM attempts WHERE hook_id = $1', [hook.id])).length === 50,
      'the history writer to move all 50 records',
    );
    // The monitor took the failure from the stream and ran the hook's streak script on its shard; the
    // workers' finish scripts ended the streak there.
    await waitUntil(() => h.outcomesConsumed(), 'the monitor to consume every outcome');
    expect(await h.redis.xlen(h.keys.outcomes())).toBe(1);
    expect(await readStreak(h.redis, h.keys, hook.id)).toEqual({ count: 0 });
    expect(await h.redis.exists(h.keys.hookStreak(hook.id))).toBe(1);
    // The monitor's watchdog sweeps the hooks on their shards too: its figures end with nothing waiting.
    await waitUntil(
      async () => figuresFromHash(await h.redis.hgetall(h.keys.fleetFigures()))?.waiting === 0,
      "the watchdog's sweep over the cluster to find nothing waiting",
    );
  }, 60_000);

  it('spreads hooks over the masters; three worker processes give each hook every event, in order', async () => {
    const account = await h.store.accounts.create({ name: 'Spread' });
    const hooks: { id: string; receiver: Receiver }[] = [];
    const masters = new Set<string>();
    // Hook ids are random: add hooks until their queues sit on at least two masters (six almost always do).
    while (hooks.length < 6 || (masters.size < 2 && hooks.length < 20)) {
      const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 10 }));
      h.onCleanup(() => receiver.close());
      const hook = await h.hook(account.id, receiver.url());
      hooks.push({ id: hook.id, receiver });
      masters.add(await h.masterHolding(hookQueueLayout(h.keys, hook.id).meta));
      // The hook's record and its queue share the hook's slot, so they are on one master.
      expect(await h.masterHolding(h.keys.hookRecord(hook.id))).toBe(
        await h.masterHolding(hookQueueLayout(h.keys, hook.id).meta),
      );
    }
    expect(masters.size).toBeGreaterThanOrEqual(2);

    const workers = [h.spawnWorker(), h.spawnWorker(), h.spawnWorker()];
    await Promise.all(workers.map((w) => w.waitForOutput('worker started')));
    const published: string[] = [];
    for (let i = 0; i < 20; i++) {
      published.push(`call-${i}`);
      const answer = await h.publish(account.id, `call-${i}`);
      expect(answer.hooks).toHaveLength(hooks.length);
    }
    for (const { receiver } of hooks) {
      await receiver.waitFor(20, 30_000);
      expect(receiver.maxInFlight).toBe(1);
      expect(callIds(receiver)).toEqual(published);
    }
  }, 90_000);

  it('fans out all or none: an interrupted fan-out is completed by the monitor, once per hook', async () => {
    const account = await h.store.accounts.create({ name: 'All or none' });
    const hookIds: string[] = [];
    const masters = new Set<string>();
    while (hookIds.length < 4 || (masters.size < 2 && hookIds.length < 20)) {
      const hook = await h.hook(account.id, 'https://hooks.example.com/webhook');
      hookIds.push(hook.id);
      masters.add(await h.masterHolding(hookQueueLayout(h.keys, hook.id).meta));
    }
    const [broken, ...healthy] = hookIds as [string, ...string[]];

    // None: the acceptance (one write in the account's slot) fails, so no hook gets the event.
    await h.redis.set(h.keys.accountInbox(account.id), 'not a stream');
    await expect(h.publish(account.id, 'refused', 'pbx-0')).rejects.toThrow(/WRONGTYPE/);
    await h.redis.del(h.keys.accountInbox(account.id));
    for (const id of hookIds) expect(await h.queued(id)).toEqual([]);

    // Accepted, then interrupted: one hook's queue refuses the add (its job counter is not a number).
    await h.redis.set(hookQueueLayout(h.keys, broken).jobCounter, 'not-a-number');
    await expect(h.publish(account.id, 'first', 'pbx-1')).rejects.toThrow();
    expect(await h.queued(broken)).toEqual([]);
    for (const id of healthy) expect(await h.queued(id)).toEqual(['first']);

    // Once the queue is usable again, the monitor completes the fan-out; the hooks that had it are unchanged.
    await h.redis.del(hookQueueLayout(h.keys, broken).jobCounter);
    h.startMonitor(200);
    await waitUntil(async () => (await h.queued(broken)).length > 0, 'the monitor to complete the fan-out');
    for (const id of hookIds) expect(await h.queued(id)).toEqual(['first']);
    await waitUntil(
      async () => (await h.redis.xlen(h.keys.accountInbox(account.id))) === 0,
      'the inbox entry to be done',
    );

    // The same request again: the original answer, nothing more queued.
    const again = await h.publish(account.id, 'first', 'pbx-1');
    expect(again).toMatchObject({ hooks: [...hookIds].sort(), duplicate: true });
    await h.publish(account.id, 'second');
    for (const id of hookIds) expect(await h.queued(id)).toEqual(['first', 'second']);
  }, 60_000);

  it("serves the request path's fail-fast client: accounts, hooks over several shards, publish, delete", async () => {
    const redis = createFailFastRedis(h.target);
    redis.on('error', () => undefined);
    h.onCleanup(() => redis.disconnect());
    await new Promise((resolve) => redis.once('ready', resolve));
    const services = createServices({
      redis,
      settings: {
        HOOKLINE_QUEUE_PREFIX: h.keys.prefix,
        HOOKLINE_HOLD_MAX: 100,
      },
      secretKey: randomBytes(32),
      historyDb: h.history.client,
    });
    h.onCleanup(() => services.close());
    const { store, producer } = services;
    const account = await store.accounts.create({
      name: 'Web',
      email: 'ops@example.com',
      password: 'a long password',
    });
    await expect(store.accounts.create({ name: 'Again', email: 'OPS@example.com' })).rejects.toThrow(/email/);
    expect(await store.accounts.verifyPassword('ops@example.com', 'a long password')).toMatchObject({
      id: account.id,
    });
    const hooks: HookView[] = [];
    const masters = new Set<string>();
    while (hooks.length < 6 || (masters.size < 2 && hooks.length < 20)) {
      const i = hooks.length;
      const hook = await store.hooks.create(
        account.id,
        {
          url: `https://hooks.example.com/${i}`,
          format: 'form',
          auth: { scheme: 'bearer', token: `token-${i}` },
        },
        'operator',
      );
      hooks.push(hook);
      masters.add(await h.masterHolding(h.keys.hookRecord(hook.id)));
    }
    expect(masters.size).toBeGreaterThanOrEqual(2);
    expect((await store.hooks.list(account.id)).map((x) => x.id)).toEqual(hooks.map((x) => x.id));

    const answer = await producer.publish(account.id, {
      type: 'call_created',
      id: 'web-1',
      data: { ...SAMPLE, call_id: 'web' },
    });
    expect(answer.hooks).toEqual(hooks.map((x) => x.id).sort());
    for (const hook of hooks) expect(await h.queued(hook.id)).toEqual(['web']);

    expect(await store.hooks.remove(account.id, hooks[0]!.id, 'operator')).toBe(true);
    expect(await store.hooks.listIds(account.id)).toEqual(
      hooks
        .slice(1)
        .map((x) => x.id)
        .sort(),
    );
    expect(
      await redis.exists(h.keys.hookRecord(hooks[0]!.id), hookQueueLayout(h.keys, hooks[0]!.id).meta),
    ).toBe(0);
    const activity = await store.activity.list(account.id, 10);
    expect(activity.map((entry) => entry.kind)).toEqual(['hook.deleted', ...hooks.map(() => 'hook.created')]);
  }, 60_000);
});
