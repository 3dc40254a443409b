import { AccountInbox } from './account-inbox';
import { HookJobAdder, hookQueueLayout, redisKeys, type RedisKeys } from '@hookline/redis';
import { connectRedis, useRedis } from '@hookline/testing';
import type { Redis } from 'ioredis';
import { DEDUPE_AFTER_DONE_MS, DEDUPE_TTL_MS } from '../jobs';
import { InboxTidy } from './inbox-tidy';

// What follows a fan-out's answer: its entry deleted, then its keys cut, many at a time. On a real Redis.
// Flushing must send what is due and wait for it: the caller lets the connection go next. Held back by a
// BLPOP sent first on their connection (Redis answers one connection in order), the deletions are under way
// for as long as the test decides.
describe('inbox entries and deduplication keys tidied after the answer', () => {
  const ctx = useRedis('inbox-tidy');
  const hooks = ['hk_a', 'hk_b'];
  const LONG_WINDOW_MS = 60_000; // nothing leaves before flush() but what the test sends itself
  let keys: RedisKeys;
  let held: Redis;
  let gate: string;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    gate = `${ctx.prefix}:gate`;
    held = connectRedis();
    ctx.onCleanup(() => held.disconnect());
  });

  /** An inbox entry of `accountId` for `eventId`, with each hook's deduplication key at its hour. */
  async function openEntry(accountId: string, eventId: string): Promise<string> {
    for (const hookId of hooks) await ctx.redis.set(dedupeKey(hookId, eventId), eventId, 'PX', DEDUPE_TTL_MS);
    return (await ctx.redis.xadd(keys.accountInbox(accountId), '*', 'event', eventId))!;
  }
  const dedupeKey = (hookId: string, eventId: string) => hookQueueLayout(keys, hookId).deduplication(eventId);
  const ttls = (eventId: string) =>
    Promise.all(hooks.map((hookId) => ctx.redis.pttl(dedupeKey(hookId, eventId))));
  const inboxLength = (accountId: string) => ctx.redis.xlen(keys.accountInbox(accountId));
  const tidyOn = (redis: Redis, windowMs = LONG_WINDOW_MS) =>
    new InboxTidy(new AccountInbox(redis, keys), new HookJobAdder(redis, keys), windowMs);
  const done = (accountId: string, entryId: string, eventId: string) => ({
    accountId,
    entryId,
    hookIds: hooks,
    jobId: eventId,
  });
  const settledWithin = async (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);
  const cut = (ttl: number) => ttl > 0 && ttl <= DEDUPE_AFTER_DONE_MS;

  it('deletes the entries of a window in one XDEL per inbox, then cuts each hook key', async () => {
    const a1 = await openEntry('acct_a', 'evt_a1');
    const a2 = await openEntry('acct_a', 'evt_a2');
    const b1 = await openEntry('acct_b', 'evt_b1');
    const tidy = tidyOn(ctx.redis);
    const sent = jest.spyOn(ctx.redis, 'call');
    try {
      tidy.done(done('acct_a', a1, 'evt_a1'));
      tidy.done(done('acct_b', b1, 'evt_b1'));
      tidy.done(done('acct_a', a2, 'evt_a2'));
      // Within the window nothing has left yet.
      expect(await inboxLength('acct_a')).toBe(2);
      await tidy.flush();
      expect(sent.mock.calls.filter(([command]) => command === 'XDEL')).toHaveLength(2);
    } finally {
      sent.mockRestore();
    }
    expect(await inboxLength('acct_a')).toBe(0);
    expect(await inboxLength('acct_b')).toBe(0);
    for (const eventId of ['evt_a1', 'evt_a2', 'evt_b1']) expect((await ttls(eventId)).every(cut)).toBe(true);
  });

  it('sends a window once it has passed, without waiting to be flushed', async () => {
    const a1 = await openEntry('acct_a', 'evt_a1');
    const tidy = tidyOn(ctx.redis, 20);
    tidy.done(done('acct_a', a1, 'evt_a1'));
    const deadline = Date.now() + 5000;
    while ((await inboxLength('acct_a')) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await inboxLength('acct_a')).toBe(0);
    await tidy.flush();
    expect((await ttls('evt_a1')).every(cut)).toBe(true);
  });

  it('flushing waits for the tidying under way, and it is all done when it resolves', async () => {
    const a1 = await openEntry('acct_a', 'evt_a1');
    // Every command sent on `held` from now on waits until the gate opens.
    held.blpop(gate, 0).catch(() => undefined);
    const tidy = tidyOn(held);
    tidy.done(done('acct_a', a1, 'evt_a1'));
    const flushing = tidy.flush(10_000);
    expect(await settledWithin(flushing, 300)).toBe(false);
    expect(await inboxLength('acct_a')).toBe(1);
    for (const ttl of await ttls('evt_a1')) expect(ttl).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);

    await ctx.redis.lpush(gate, 'open');
    await flushing;
    expect(await inboxLength('acct_a')).toBe(0);
    expect((await ttls('evt_a1')).every(cut)).toBe(true);
  });

  it('flushing gives up after its bound; what then fails rejects nowhere, and the keys keep their hour', async () => {
    const a1 = await openEntry('acct_a', 'evt_a1');
    held.blpop(gate, 0).catch(() => undefined);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const tidy = tidyOn(held);
      tidy.done(done('acct_a', a1, 'evt_a1'));
      const startedAt = Date.now();
      await tidy.flush(200);
      expect(Date.now() - startedAt).toBeLessThan(2000);
      // The connection goes while the deletion waits: it fails, the entry stays for recovery, no key is cut.
      held.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await inboxLength('acct_a')).toBe(1);
      for (const ttl of await ttls('evt_a1')) expect(ttl).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('flushes at once with nothing due', async () => {
    expect(await settledWithin(tidyOn(ctx.redis).flush(10_000), 100)).toBe(true);
  });
});
