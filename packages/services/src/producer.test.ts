import { randomBytes } from 'node:crypto';
import type { PublishEventInput } from '@hookline/core';
import {
  DEDUPE_AFTER_DONE_MS,
  INBOX_SCRIPTS,
  InboxRecovery,
  Producer,
  type DeliverJobData,
  type ProducerDeps,
} from '@hookline/queue';
import {
  EVENTS_MAX_LEN,
  HistoryOutbox,
  hookQueueLayout,
  HookQueues,
  redisKeys,
  type RedisKeys,
} from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { dropHeldEvents } from '@hookline/suspension';
import { useRedis, waitUntil } from '@hookline/testing';

// The producer on one Redis: acceptance is one write in the account's slot, the fan-out to the hooks' queues
// follows, and an interrupted fan-out is completed later without giving any hook the event twice. The same
// code runs on a Redis Cluster in apps/hookline/test/fleet/cluster.test.ts.

const ctx = useRedis('producer');
let keys: RedisKeys;
let hookQueues: HookQueues;
let store: Store;
let accountId: string;
let hookIds: string[];

const event = (callId: string, id?: string): PublishEventInput => ({
  type: 'call_created',
  ...(id ? { id } : {}),
  data: { call_id: callId, direction: 'outbound', from: 'a', from_cnam: 'A', to: 'b', rate: '0.0' },
});

function producer(recoveryGraceMs?: number, more: Partial<ProducerDeps> = {}): Producer {
  return ctx.closeLater(
    new Producer({
      redis: ctx.redis,
      keys,
      erasureTags: store.erasureTags,
      ...(recoveryGraceMs !== undefined ? { recoveryGraceMs } : {}),
      ...more,
    }),
  );
}

function recovery(): InboxRecovery {
  return ctx.closeLater(new InboxRecovery({ redis: ctx.redis, keys, graceMs: 0 }));
}

/** The call ids in a hook's queue, oldest first. */
async function queued(hookId: string): Promise<string[]> {
  const queue = hookQueues.open(hookId);
  try {
    const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed'], 0, -1, true);
    return jobs.map((job) => String((job.data as DeliverJobData).event.fields.call_id));
  } finally {
    await queue.close();
  }
}

/** Makes adding any job to this hook's queue fail (its job counter is not a number). */
const breakQueue = (hookId: string) =>
  ctx.redis.set(hookQueueLayout(keys, hookId).jobCounter, 'not-a-number');
const repairQueue = (hookId: string) => ctx.redis.del(hookQueueLayout(keys, hookId).jobCounter);
const inboxLength = () => ctx.redis.xlen(keys.accountInbox(accountId));
/** Done entries are deleted just after the publish answers (InboxTidy): waits until `n` are left. */
const inboxSettlesAt = (n: number) =>
  waitUntil(async () => (await inboxLength()) === n, `${n} inbox entries left`, 5000);

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  hookQueues = new HookQueues(ctx.redis, keys);
  store = createStore({ redis: ctx.redis, keys, secretBox: SecretBox.fromKey(randomBytes(32)), hookQueues });
  accountId = (await store.accounts.create({ name: 'Acme' })).id;
  hookIds = [];
  for (const path of ['/a', '/b', '/c'])
    hookIds.push(
      (
        await store.hooks.create(
          accountId,
          { url: `https://hooks.example.com${path}`, format: 'json', auth: { scheme: 'none' } },
          'operator',
        )
      ).id,
    );
  hookIds.sort();
});

describe('publishing', () => {
  it('puts the event into every hook queue and leaves nothing in the inbox', async () => {
    const answer = await producer().publish(accountId, event('c1'));
    expect(answer).toEqual({ id: expect.stringMatching(/^evt_/), hooks: hookIds, duplicate: false });
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
    await inboxSettlesAt(0);
  });

  it('answers a repeated idempotency key with the original answer and queues nothing more', async () => {
    const p = producer();
    const first = await p.publish(accountId, event('c1', 'pbx-1'));
    const again = await p.publish(accountId, event('c1', 'pbx-1'));
    expect(again).toEqual({ ...first, duplicate: true });
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
  });

  it('refuses the same idempotency key for a different event, queueing nothing', async () => {
    const p = producer();
    await p.publish(accountId, event('c1', 'pbx-1'));
    await expect(p.publish(accountId, event('c2', 'pbx-1'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
  });

  it('accepts nothing when the acceptance itself fails', async () => {
    await ctx.redis.set(keys.accountInbox(accountId), 'not a stream');
    await expect(producer().publish(accountId, event('c1', 'pbx-1'))).rejects.toThrow(/WRONGTYPE/);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual([]);
    expect(await ctx.redis.exists(keys.accountIdempotency(accountId, 'pbx-1'))).toBe(0);
    await ctx.redis.del(keys.accountInbox(accountId));
    expect(await recovery().run()).toBe(0);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual([]);
  });

  it('tells onHeld which hooks were paused, once their jobs are queued', async () => {
    const [first, , last] = hookIds as [string, string, string];
    await hookQueues.pauseOnce(first);
    await hookQueues.pauseOnce(last);
    const calls: { held: readonly string[]; queued: string[][] }[] = [];
    const onHeld = async (held: readonly string[]) =>
      calls.push({ held, queued: await Promise.all(held.map((hookId) => queued(hookId))) });
    const p = producer(undefined, { onHeld });
    await p.publish(accountId, event('c1'));
    expect(calls).toEqual([{ held: [first, last], queued: [['c1'], ['c1']] }]);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
  });
});

describe("hook queues' event streams", () => {
  const maxLenEvents = (hookId: string) =>
    ctx.redis.hget(hookQueueLayout(keys, hookId).meta, 'opts.maxLenEvents');

  it('are kept short from set-up on, and publishing keeps them so', async () => {
    for (const hookId of hookIds) expect(await maxLenEvents(hookId)).toBe(String(EVENTS_MAX_LEN));
    const p = producer();
    for (let i = 0; i < 3 * EVENTS_MAX_LEN; i += 1) await p.publish(accountId, event(`c${i}`));
    for (const hookId of hookIds) {
      expect(await maxLenEvents(hookId)).toBe(String(EVENTS_MAX_LEN));
      // BullMQ trims approximately, a whole stream node (100 entries) at a time.
      expect(await ctx.redis.xlen(hookQueueLayout(keys, hookId).events)).toBeLessThanOrEqual(
        2 * EVENTS_MAX_LEN,
      );
    }
  });

  it('are shortened for a queue made before the limit, at its next publish', async () => {
    const [first] = hookIds as [string];
    await ctx.redis.hset(hookQueueLayout(keys, first).meta, 'opts.maxLenEvents', 10_000);
    await producer().publish(accountId, event('c1'));
    expect(await maxLenEvents(first)).toBe(String(EVENTS_MAX_LEN));
  });
});

describe('the recovery index', () => {
  const score = () => ctx.redis.zscore(keys.inboxAccounts(), accountId);

  it("is not written again while this process's own mark is younger than a quarter of the grace period", async () => {
    const p = producer(60_000);
    await p.publish(accountId, event('c1'));
    expect(await score()).not.toBeNull();
    await ctx.redis.zadd(keys.inboxAccounts(), 1, accountId);
    await p.publish(accountId, event('c2'));
    expect(await score()).toBe('1');
    // Another process has no mark of its own to go by.
    await producer(60_000).publish(accountId, event('c3'));
    expect(Number(await score())).toBeGreaterThan(1);
  });

  it('marks each account in its accept script on one Redis, with no mark script of its own', async () => {
    const others = [];
    for (const name of ['Beta', 'Gamma']) {
      const other = (await store.accounts.create({ name })).id;
      await store.hooks.create(
        other,
        { url: `https://hooks.example.com/${name}`, format: 'json', auth: { scheme: 'none' } },
        'operator',
      );
      others.push(other);
    }
    const accounts = [accountId, ...others];
    const marks = jest.spyOn(INBOX_SCRIPTS.inboxMark, 'run');
    try {
      const p = producer(60_000);
      await Promise.all(accounts.map((account, i) => p.publish(account, event(`c${i}`))));
      expect(marks).not.toHaveBeenCalled();
    } finally {
      marks.mockRestore();
    }
    for (const account of accounts)
      expect(await ctx.redis.zscore(keys.inboxAccounts(), account)).not.toBeNull();
  });

  it('is written again once the mark is older than that, by a publish that writes an inbox entry', async () => {
    const p = producer(40);
    await p.publish(accountId, event('c1'));
    await ctx.redis.zadd(keys.inboxAccounts(), 1, accountId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A hook added since: the hooks remembered from c1 are no longer the account's, so c2 gets an entry.
    await store.hooks.create(
      accountId,
      { url: 'https://hooks.example.com/new', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    await p.publish(accountId, event('c2'));
    expect(Number(await score())).toBeGreaterThan(1);
  });

  it('is not written by a publish whose adds its accept makes: nothing is left to recover', async () => {
    const p = producer(40);
    await p.publish(accountId, event('c1'));
    await inboxSettlesAt(0);
    await ctx.redis.zrem(keys.inboxAccounts(), accountId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The mark is due, and c2's hooks are those remembered from c1: one script, no entry, no mark.
    await p.publish(accountId, event('c2'));
    expect(await score()).toBeNull();
    expect(await inboxLength()).toBe(0);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1', 'c2']);
    // Still due: the next publish that writes an entry carries it.
    await store.hooks.create(
      accountId,
      { url: 'https://hooks.example.com/new', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    await p.publish(accountId, event('c3'));
    expect(await score()).not.toBeNull();
  });
});

describe('a fan-out interrupted half-way', () => {
  it('is completed by the recovery pass: every hook ends up with the event exactly once', async () => {
    const [first, broken, last] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(producer().publish(accountId, event('c1'))).rejects.toThrow();
    expect(await queued(first)).toEqual(['c1']);
    expect(await queued(broken)).toEqual([]);
    expect(await queued(last)).toEqual(['c1']);
    expect(await inboxLength()).toBe(1);

    // Still broken: the pass fails for this account and keeps the entry for the next one.
    expect(await recovery().run()).toBe(0);
    await repairQueue(broken);
    expect(await recovery().run()).toBe(1);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
    expect(await inboxLength()).toBe(0); // recovery has its deletions sent before it looks at the inbox
  });

  it('is completed by the next publish for the account, before its own event', async () => {
    const [, broken] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(producer(0).publish(accountId, event('c1'))).rejects.toThrow();
    await repairQueue(broken);
    await producer(0).publish(accountId, event('c2'));
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1', 'c2']);
    await inboxSettlesAt(0);
  });

  it('is left to its own publisher while younger than the grace period', async () => {
    const [, broken] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(producer().publish(accountId, event('c1'))).rejects.toThrow();
    await repairQueue(broken);
    await producer().publish(accountId, event('c2'));
    expect(await queued(broken)).toEqual(['c2']);
    await inboxSettlesAt(1);
    // Recovery with the default grace leaves it too; the account stays indexed until the entry is done.
    const patient = ctx.closeLater(new InboxRecovery({ redis: ctx.redis, keys, graceMs: 60_000 }));
    expect(await patient.run()).toBe(0);
    expect(await ctx.redis.zscore(keys.inboxAccounts(), accountId)).not.toBeNull();
    expect(await recovery().run()).toBe(1);
    expect(await queued(broken)).toEqual(['c2', 'c1']);
    expect(await ctx.redis.zscore(keys.inboxAccounts(), accountId)).toBeNull();
  });

  it('is completed by a retry with the same idempotency key, which gets the original answer', async () => {
    const [, broken] = hookIds as [string, string, string];
    await breakQueue(broken);
    const p = producer();
    await expect(p.publish(accountId, event('c1', 'pbx-7'))).rejects.toThrow();
    await repairQueue(broken);
    const retry = await p.publish(accountId, event('c1', 'pbx-7'));
    expect(retry).toEqual({ id: expect.stringMatching(/^evt_/), hooks: hookIds, duplicate: true });
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c1']);
    await inboxSettlesAt(0);
  });

  it('never brings back an event a hook has already dropped', async () => {
    const [first, broken] = hookIds as [string, string, string];
    await hookQueues.pauseOnce(first);
    await breakQueue(broken);
    await expect(producer().publish(accountId, event('c1'))).rejects.toThrow();
    // The suspended hook's held event is discarded (its job is gone) before the fan-out is completed.
    const deps = { hookQueues, outbox: new HistoryOutbox(ctx.redis, keys) };
    expect(await dropHeldEvents(deps, first, 0, 'discarded', 'test')).toBe(1);
    await repairQueue(broken);
    expect(await recovery().run()).toBe(1);
    expect(await queued(first)).toEqual([]);
    expect(await queued(broken)).toEqual(['c1']);
  });

  it('skips a hook deleted since the event was accepted', async () => {
    const [first, broken] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(producer().publish(accountId, event('c1'))).rejects.toThrow();
    await store.hooks.remove(accountId, broken, 'operator');
    expect(await recovery().run()).toBe(1);
    expect(await queued(first)).toEqual(['c1']);
    expect(await ctx.redis.exists(hookQueueLayout(keys, broken).meta)).toBe(0);
  });
});

describe('on one Redis, a publish of a kind its producer has published before', () => {
  /** How many entries the account's inbox was ever given (XINFO STREAM's entries-added). */
  const entriesAdded = async () => {
    const info = (await ctx.redis.xinfo('STREAM', keys.accountInbox(accountId))) as unknown[];
    return Number(info[info.indexOf('entries-added') + 1]);
  };
  /** The stored job of a call in a hook's queue. */
  const jobOf = async (hookId: string, callId: string) => {
    const queue = hookQueues.open(hookId);
    try {
      const jobs = await queue.getJobs(['waiting'], 0, -1, true);
      return jobs.find((j) => (j.data as DeliverJobData).event.fields.call_id === callId)!;
    } finally {
      await queue.close();
    }
  };
  /** A producer that has published one event ('c0') to the account's hooks: it knows them. */
  const warm = async (more: Partial<ProducerDeps> = {}, graceMs?: number) => {
    const p = producer(graceMs, more);
    await p.publish(accountId, event('c0'));
    await inboxSettlesAt(0);
    return p;
  };

  it("is queued to every hook by its accept's script: no inbox entry, each hook signalled, the jobs as a fan-out makes them", async () => {
    const p = await warm();
    const before = await entriesAdded();
    await ctx.redis.del(keys.readyHooks(), keys.hooksWithWork());
    const answer = await p.publish(accountId, event('c1'));
    expect(answer).toEqual({ id: expect.stringMatching(/^evt_/), hooks: hookIds, duplicate: false });
    expect(await entriesAdded()).toBe(before);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c0', 'c1']);
    expect((await ctx.redis.zrange(keys.readyHooks(), 0, -1)).sort()).toEqual(hookIds);
    expect((await ctx.redis.zrange(keys.hooksWithWork(), 0, -1)).sort()).toEqual(hookIds);
    for (const hookId of hookIds) {
      const [fannedOut, added] = [await jobOf(hookId, 'c0'), await jobOf(hookId, 'c1')];
      expect(added.id).toBe(answer.id);
      expect({ ...added.opts, jobId: 'x', deduplication: { ...added.opts.deduplication, id: 'x' } }).toEqual({
        ...fannedOut.opts,
        jobId: 'x',
        deduplication: { ...fannedOut.opts.deduplication, id: 'x' },
      });
      expect(added.data).toMatchObject({
        accountId,
        hookId,
        event: { id: answer.id },
        acceptedAt: expect.any(Number),
      });
      // Done at once: its deduplication key lives what a done fan-out's is cut to, not the hour.
      const ttl = await ctx.redis.pttl(hookQueueLayout(keys, hookId).deduplication(answer.id));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(DEDUPE_AFTER_DONE_MS);
    }
  });

  it("falls back to an inbox entry and a fan-out when the account's hooks changed since, then learns them", async () => {
    const p = await warm();
    const added = await store.hooks.create(
      accountId,
      { url: 'https://hooks.example.com/d', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const all = [...hookIds, added.id].sort();
    const before = await entriesAdded();
    expect((await p.publish(accountId, event('c1'))).hooks).toEqual(all);
    expect(await entriesAdded()).toBe(before + 1);
    expect((await p.publish(accountId, event('c2'))).hooks).toEqual(all);
    expect(await entriesAdded()).toBe(before + 1);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c0', 'c1', 'c2']);
    expect(await queued(added.id)).toEqual(['c1', 'c2']);
  });

  it('stops at a queue that refuses its add and writes the entry instead: recovery completes it, no hook twice', async () => {
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (_: object, msg: string) => void warnings.push(msg) };
    const p = await warm({ log });
    const [first, broken, last] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(p.publish(accountId, event('c1'))).rejects.toThrow();
    expect(warnings).toEqual(["the accept's adds stopped half-way; the event is fanned out instead"]);
    expect(await queued(first)).toEqual(['c0', 'c1']);
    expect(await queued(broken)).toEqual(['c0']);
    expect(await queued(last)).toEqual(['c0', 'c1']);
    expect(await inboxLength()).toBe(1);
    await repairQueue(broken);
    expect(await recovery().run()).toBe(1);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c0', 'c1']);
  });

  it('comes after an abandoned entry of its account: that one is fanned out first', async () => {
    const p = await warm({}, 0);
    const [, broken] = hookIds as [string, string, string];
    await breakQueue(broken);
    await expect(p.publish(accountId, event('c1'))).rejects.toThrow();
    await repairQueue(broken);
    const before = await entriesAdded();
    await p.publish(accountId, event('c2'));
    expect(await entriesAdded()).toBe(before + 1);
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c0', 'c1', 'c2']);
    await inboxSettlesAt(0);
  });

  it('tells onHeld which hooks were paused', async () => {
    const calls: (readonly string[])[] = [];
    const p = await warm({ onHeld: async (held) => calls.push(held) });
    const [first] = hookIds as [string];
    await hookQueues.pauseOnce(first);
    await p.publish(accountId, event('c1'));
    expect(calls).toEqual([[first]]);
  });

  it('queues nothing more for a repeated idempotency key', async () => {
    const p = await warm();
    const answer = await p.publish(accountId, event('c1', 'pbx-1'));
    expect(await p.publish(accountId, event('c1', 'pbx-1'))).toEqual({ ...answer, duplicate: true });
    for (const hookId of hookIds) expect(await queued(hookId)).toEqual(['c0', 'c1']);
  });

  it('includes a send-again, whose hook is named: one script, no inbox entry', async () => {
    const p = producer();
    const [hookId] = hookIds as [string];
    await p.publish(accountId, event('c1'));
    await inboxSettlesAt(0);
    const before = await entriesAdded();
    const { event: sent } = (await jobOf(hookId, 'c1')).data as DeliverJobData;
    await p.resend(accountId, hookId, sent, 'att_again');
    expect(await entriesAdded()).toBe(before);
    const queue = hookQueues.open(hookId);
    try {
      const again = await queue.getJob(`${sent.id}.att_again`);
      expect(again?.data).toMatchObject({ hookId, attemptId: 'att_again', trigger: 'manual', event: sent });
    } finally {
      await queue.close();
    }
  });
});
