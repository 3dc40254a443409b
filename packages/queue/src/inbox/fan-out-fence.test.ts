import type { DeliverableEvent } from '@hookline/core';
import { hookQueueLayout, HookQueues, redisKeys, StaleFanOutError, type RedisKeys } from '@hookline/redis';
import { useRedis, waitUntil } from '@hookline/testing';
import { DEDUPE_AFTER_DONE_MS, DEDUPE_TTL_MS, FANOUT_STALE_MS } from '../jobs';
import type { InboxEntry } from './inbox-entry';
import { createInboxFanOut } from './fan-out';

// The fan-out's fence, on a real Redis: a fan-out whose entry was read FANOUT_STALE_MS ago or more adds
// nothing, and so the hooks' deduplication keys can be cut to under a minute once the entry is done.
describe('the fan-out fence', () => {
  const ctx = useRedis('fan-out-fence');
  const accountId = 'acct_fence';
  const hooks = ['hk_a', 'hk_b'];
  let keys: RedisKeys;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    const queues = new HookQueues(ctx.redis, keys);
    for (const hookId of hooks) await queues.setUp(hookId);
  });

  const wiring = () => {
    const wired = createInboxFanOut({ redis: ctx.redis, keys });
    ctx.closeLater(wired.fanOut); // the cuts under way finish before the keys are removed
    return wired;
  };
  const waiting = (hookId: string) => ctx.redis.lrange(hookQueueLayout(keys, hookId).wait, 0, -1);
  const dedupeTtl = (hookId: string, jobId: string) =>
    ctx.redis.pttl(hookQueueLayout(keys, hookId).deduplication(jobId));
  const inboxLength = () => ctx.redis.xlen(keys.accountInbox(accountId));
  /** The same entry as handed to a fan-out that read it `ms` earlier (and stalled since). */
  const readEarlier = (entry: InboxEntry, ms: number): InboxEntry => ({
    ...entry,
    readAt: entry.readAt - ms,
  });

  async function accept(eventId: string): Promise<InboxEntry> {
    const event: DeliverableEvent = { id: eventId, type: 'call_created', fields: { call_id: eventId } };
    const acceptance = await wiring().inbox.accept({
      accountId,
      event,
      acceptedAt: Date.now(),
      hooks,
      idempotencyTtlSeconds: 60,
      graceMs: 60_000,
      maxAbandoned: 0,
    });
    if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');
    return acceptance.entry;
  }

  it('refuses a fan-out that read its entry too long ago: nothing queued, the entry stays for a fresh one', async () => {
    const entry = await accept('evt_1');
    const { fanOut, inbox } = wiring();
    await expect(
      fanOut.deliver(accountId, readEarlier(entry, FANOUT_STALE_MS + 1000)),
    ).rejects.toBeInstanceOf(StaleFanOutError);
    for (const hookId of hooks) {
      expect(await waiting(hookId)).toEqual([]);
      expect(await dedupeTtl(hookId, 'evt_1')).toBe(-2);
    }
    expect(await inboxLength()).toBe(1);

    // Recovery reads the entry again (a fresh read time) and fans it out: each hook gets the event once.
    const [again] = await inbox.olderThan(accountId, 0, 10);
    expect(again!.readAt).toBeGreaterThanOrEqual(entry.readAt);
    await fanOut.deliver(accountId, again!, true);
    await fanOut.deliver(accountId, again!, true);
    await fanOut.close(); // the entry's deletion follows the answer
    for (const hookId of hooks) expect(await waiting(hookId)).toEqual(['evt_1']);
    expect(await inboxLength()).toBe(0);
  });

  it('cuts each deduplication key to under a minute once the entry is done, after the answer', async () => {
    const entry = await accept('evt_1');
    await wiring().fanOut.deliver(accountId, entry);
    await waitUntil(async () => (await inboxLength()) === 0, 'the entry deleted');
    for (const hookId of hooks) {
      // Not awaited by the publish: the deletion and then the cut land shortly after it answers.
      const ttl = await waitUntil(async () => {
        const left = await dedupeTtl(hookId, 'evt_1');
        return left <= DEDUPE_AFTER_DONE_MS && left;
      }, `the deduplication key of ${hookId} cut`);
      expect(ttl).toBeGreaterThan(DEDUPE_AFTER_DONE_MS - 5000);
    }
  });

  it('has the deletion and every cut due done when the fan-out is closed', async () => {
    const entry = await accept('evt_1');
    const { fanOut } = wiring();
    await fanOut.deliver(accountId, entry);
    await fanOut.close();
    for (const hookId of hooks) {
      const ttl = await dedupeTtl(hookId, 'evt_1');
      expect(ttl).toBeGreaterThan(DEDUPE_AFTER_DONE_MS - 5000);
      expect(ttl).toBeLessThanOrEqual(DEDUPE_AFTER_DONE_MS);
    }
  });

  it('keeps the hour while the entry is not done (a fan-out interrupted half-way)', async () => {
    const entry = await accept('evt_1');
    // hk_b cannot take jobs (its job counter is not a number): the fan-out fails there, the entry stays open.
    await ctx.redis.set(hookQueueLayout(keys, 'hk_b').jobCounter, 'not-a-number');
    await expect(wiring().fanOut.deliver(accountId, entry)).rejects.toThrow();
    expect(await waiting('hk_a')).toEqual(['evt_1']);
    expect(await dedupeTtl('hk_a', 'evt_1')).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);
    expect(await inboxLength()).toBe(1);
  });

  it('never gives an event twice to a fan-out that stalled past the key: delivered, dropped, key gone', async () => {
    const entry = await accept('evt_1');
    const { fanOut } = wiring();
    // Another fan-out of the same entry read it too, then stalled (a frozen process) before adding.
    const stalled = readEarlier(entry, FANOUT_STALE_MS + 1000);
    await fanOut.deliver(accountId, entry);
    // Each hook delivered the event, BullMQ dropped the finished job, and the shortened key expired.
    for (const hookId of hooks) {
      const layout = hookQueueLayout(keys, hookId);
      await ctx.redis.del(`${layout.jobPrefix}evt_1`, layout.deduplication('evt_1'));
      await ctx.redis.lrem(layout.wait, 0, 'evt_1');
    }
    await expect(fanOut.deliver(accountId, stalled)).rejects.toBeInstanceOf(StaleFanOutError);
    for (const hookId of hooks) expect(await waiting(hookId)).toEqual([]);
  });

  it('still refuses a repeated fan-out within the window by the key, after the job was delivered and dropped', async () => {
    const entry = await accept('evt_1');
    const { fanOut } = wiring();
    await fanOut.deliver(accountId, entry);
    for (const hookId of hooks) {
      const layout = hookQueueLayout(keys, hookId);
      await ctx.redis.del(`${layout.jobPrefix}evt_1`);
      await ctx.redis.lrem(layout.wait, 0, 'evt_1');
    }
    // A fan-out that read the entry before it was done, within FANOUT_STALE_MS: the key still says "given".
    await fanOut.deliver(accountId, readEarlier(entry, FANOUT_STALE_MS - 5000));
    for (const hookId of hooks) expect(await waiting(hookId)).toEqual([]);
  });
});
