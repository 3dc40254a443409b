import { join } from 'node:path';
import { redisKeys, scriptFolderProblems } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { AccountInbox } from './account-inbox';
import { AccountMarks } from './account-marks';
import { INBOX_SCRIPTS } from './scripts';

describe("the account inbox's Lua scripts", () => {
  const ctx = useRedis('scripts');

  it('every file is in the catalogue, says its KEYS and compiles', async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), INBOX_SCRIPTS, ctx.redis)).toEqual([]);
  });

  it('accepts an event asking for no abandoned entries while older ones wait in the inbox', async () => {
    const inbox = new AccountInbox(ctx.redis, redisKeys(ctx.prefix));
    const accept = (eventId: string, acceptedAt: number, maxAbandoned: number) =>
      inbox.accept({
        accountId: 'acct_1',
        event: { id: eventId, type: 'call_created', fields: { call_id: eventId } },
        acceptedAt,
        hooks: ['hk_1'],
        idempotencyTtlSeconds: 60,
        graceMs: 0, // every entry already in the inbox counts as abandoned
        maxAbandoned,
      });
    expect((await accept('evt_1', Date.now(), 10)).kind).toBe('accepted');
    const none = await accept('evt_2', Date.now(), 0);
    expect(none).toMatchObject({ kind: 'accepted', abandoned: [] });
    const some = await accept('evt_3', Date.now(), 10);
    expect(some.abandoned.map((entry) => entry.event.id)).toEqual(['evt_1', 'evt_2']);
  });
});

describe("the account's mark in the index recovery walks", () => {
  const ctx = useRedis('marks');
  const event = (id: string) => ({ id, type: 'call_created', fields: { call_id: id } });
  const base = { hooks: ['hk_1'], idempotencyTtlSeconds: 60, graceMs: 10_000, maxAbandoned: 0 };

  it('rides in the accept script when asked, with or without an idempotency key', async () => {
    const keys = redisKeys(ctx.prefix);
    const inbox = new AccountInbox(ctx.redis, keys);
    const before = Date.now();
    const plain = await inbox.accept({
      ...base,
      accountId: 'acct_a',
      event: event('evt_a'),
      acceptedAt: before,
      markAccount: true,
    });
    const keyed = await inbox.accept({
      ...base,
      accountId: 'acct_b',
      event: event('evt_b'),
      acceptedAt: before,
      idempotencyKey: 'req-1',
      markAccount: true,
    });
    const unmarked = await inbox.accept({
      ...base,
      accountId: 'acct_c',
      event: event('evt_c'),
      acceptedAt: before,
    });
    expect([plain.kind, keyed.kind, unmarked.kind]).toEqual(['accepted', 'accepted', 'accepted']);
    // Marked with the Redis server's time, as inbox-mark.lua does; the idempotency key is still the fifth key.
    expect(Number(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_a'))).toBeGreaterThanOrEqual(
      before - 1000,
    );
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_b')).not.toBeNull();
    expect(await ctx.redis.exists(keys.accountIdempotency('acct_b', 'req-1'))).toBe(1);
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_c')).toBeNull();
    // The entries are where recovery reads them.
    expect(await ctx.redis.xlen(keys.accountInbox('acct_a'))).toBe(1);
  });

  it('is a script of its own where the accept cannot carry it (a Redis Cluster): one per turn', async () => {
    const keys = redisKeys(ctx.prefix);
    const inbox = new AccountInbox(ctx.redis, keys);
    const marks = new AccountMarks(inbox, 10_000, { withAccept: false });
    const run = jest.spyOn(INBOX_SCRIPTS.inboxMark, 'run');
    try {
      const pending = await Promise.all(['acct_x', 'acct_y', 'acct_x'].map((id) => marks.ensure(id)));
      expect(pending).toEqual([undefined, undefined, undefined]);
      expect(run).toHaveBeenCalledTimes(1);
      expect([...(run.mock.calls[0]![2] as string[])].sort()).toEqual(['acct_x', 'acct_y']);
    } finally {
      run.mockRestore();
    }
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_y')).not.toBeNull();
  });

  it('on one Redis is handed to the accept, and counted only once that accept says it ran', async () => {
    const inbox = new AccountInbox(ctx.redis, redisKeys(ctx.prefix));
    const marks = new AccountMarks(inbox, 10_000);
    const first = await marks.ensure('acct_z');
    expect(first).toBeDefined();
    // Not done (the accept failed, say): the next publish carries the mark again.
    const again = await marks.ensure('acct_z');
    expect(again).toBeDefined();
    again!.done();
    expect(await marks.ensure('acct_z')).toBeUndefined();
  });
});

describe("recovery's visit of a quiet account, on one Redis", () => {
  const ctx = useRedis('visit');
  const event = (id: string) => ({ id, type: 'call_created', fields: { call_id: id } });

  it('forgets an empty inbox whose mark is older than the grace period, in the same script', async () => {
    const keys = redisKeys(ctx.prefix);
    const inbox = new AccountInbox(ctx.redis, keys);
    await ctx.redis.zadd(keys.inboxAccounts(), 1, 'acct_old', Date.now() + 60_000, 'acct_fresh');
    expect(await inbox.visit('acct_old', 10_000, 100)).toEqual({ entries: [], looked: true });
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_old')).toBeNull();
    // A publish marked it since (a fresh score): it stays, as with inbox-forget.lua.
    expect(await inbox.visit('acct_fresh', 10_000, 100)).toEqual({ entries: [], looked: true });
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_fresh')).not.toBeNull();
  });

  it('keeps the mark of an inbox that still holds entries, and hands over those past the grace period', async () => {
    const keys = redisKeys(ctx.prefix);
    const inbox = new AccountInbox(ctx.redis, keys);
    const accept = (id: string, graceMs: number) =>
      inbox.accept({
        accountId: 'acct_v',
        event: event(id),
        acceptedAt: Date.now(),
        hooks: ['hk_1'],
        idempotencyTtlSeconds: 60,
        graceMs,
        maxAbandoned: 0,
      });
    await accept('evt_young', 10_000);
    await ctx.redis.zadd(keys.inboxAccounts(), 1, 'acct_v');
    // Younger than the grace period: nothing to hand over, and the inbox is not empty, so the mark stays.
    expect(await inbox.visit('acct_v', 10_000, 100)).toEqual({ entries: [], looked: true });
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_v')).toBe('1');
    // Past it (grace 0): the entry is handed over for its fan-out, the mark kept until that is done.
    const left = await inbox.visit('acct_v', 0, 100);
    expect(left.looked).toBe(false);
    expect(left.entries.map((entry) => entry.event.id)).toEqual(['evt_young']);
    expect(await ctx.redis.zscore(keys.inboxAccounts(), 'acct_v')).toBe('1');
  });
});
