import type { DeliverableEvent } from '@hookline/core';
import { hookQueueLayout, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { ENGINE_SCRIPTS } from '@hookline/scheduler';
import { useRedis, waitUntil, watchCommands } from '@hookline/testing';
import { DEDUPE_AFTER_DONE_MS, DEDUPE_TTL_MS } from '../jobs';
import type { InboxEntry } from './inbox-entry';
import { createInboxFanOut } from './fan-out';

// A fan-out answers once its jobs are queued and signalled; its inbox entry is deleted after, with those of
// every fan-out that ended in the same window, in one XDEL per account inbox. On a real Redis: every entry is
// deleted, and a deletion that fails leaves only its own inbox's entries (to recovery) and their keys' hour.
describe('inbox entries done after the answer', () => {
  const ctx = useRedis('inbox-done');
  const hooks = ['hk_a', 'hk_b'];
  let keys: RedisKeys;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    const queues = new HookQueues(ctx.redis, keys);
    for (const hookId of hooks) await queues.setUp(hookId);
  });

  const wiring = () => {
    const wired = createInboxFanOut({ redis: ctx.redis, keys });
    ctx.closeLater(wired.fanOut);
    return wired;
  };
  const inboxLength = (accountId: string) => ctx.redis.xlen(keys.accountInbox(accountId));
  const waiting = (hookId: string) => ctx.redis.lrange(hookQueueLayout(keys, hookId).wait, 0, -1);
  const dedupeTtl = (hookId: string, eventId: string) =>
    ctx.redis.pttl(hookQueueLayout(keys, hookId).deduplication(eventId));
  /** The inbox can no longer be written to: every XDEL on it fails (WRONGTYPE). */
  const breakInbox = async (accountId: string) => {
    await ctx.redis.del(keys.accountInbox(accountId));
    await ctx.redis.set(keys.accountInbox(accountId), 'not a stream');
  };

  async function accept(accountId: string, eventId: string): Promise<InboxEntry> {
    const event: DeliverableEvent = { id: eventId, type: 'call_created', fields: { call_id: eventId } };
    const acceptance = await wiring().inbox.accept({
      accountId,
      event,
      acceptedAt: Date.now(),
      hooks,
      idempotencyTtlSeconds: 60,
      graceMs: 60_000,
      maxAbandoned: 10, // none is old enough
    });
    if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');
    return acceptance.entry;
  }

  it('answers with the jobs queued; the entry leaves, and the keys are cut, just after', async () => {
    const entry = await accept('acct_a', 'evt_a1');
    const { fanOut } = wiring();
    await fanOut.deliver('acct_a', entry);
    for (const hookId of hooks) expect(await waiting(hookId)).toEqual(['evt_a1']);
    await waitUntil(async () => (await inboxLength('acct_a')) === 0, 'the entry deleted', 5000);
    await waitUntil(
      async () => (await dedupeTtl('hk_a', 'evt_a1')) <= DEDUPE_AFTER_DONE_MS,
      'the key cut',
      5000,
    );
    for (const hookId of hooks) expect(await dedupeTtl(hookId, 'evt_a1')).toBeGreaterThan(0);
  });

  // On one Redis each add signals its hook in the same script: the publish has no signal of its own to wait
  // for, and no worker can be told of a hook before its job is there. Counted as Redis sees the commands.
  it('answers with every hook signalled by its own add, on one Redis: no separate signal', async () => {
    const entry = await accept('acct_a', 'evt_s1');
    const { fanOut } = wiring();
    const scripts: string[] = [];
    const watch = await watchCommands(ctx.redis, (args) => {
      if (args[0]?.toLowerCase() === 'evalsha' && args.slice(3).some((a) => a.startsWith(ctx.prefix)))
        scripts.push(args[1]!);
    });
    try {
      await fanOut.deliver('acct_a', entry);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the monitor's lines arrive after the replies
    } finally {
      watch.stop();
    }
    for (const hookId of hooks) {
      expect(await waiting(hookId)).toEqual(['evt_s1']);
      expect(await ctx.redis.zscore(keys.readyHooks(), hookId)).not.toBeNull();
      expect(await ctx.redis.zscore(keys.hooksWithWork(), hookId)).not.toBeNull();
    }
    expect(scripts).not.toContain(ENGINE_SCRIPTS.readySignal.sha);
    // The two adds (the inbox entry's deletion follows in a window of its own, and is an XDEL).
    expect(scripts).toHaveLength(2);
  });

  it('fan-outs finishing together each get their own entry deleted, in every account', async () => {
    const a = await Promise.all(['evt_a1', 'evt_a2', 'evt_a3'].map((id) => accept('acct_a', id)));
    const b = await Promise.all(['evt_b1', 'evt_b2'].map((id) => accept('acct_b', id)));
    const { fanOut } = wiring();
    await Promise.all([
      ...a.map((entry) => fanOut.deliver('acct_a', entry)),
      ...b.map((entry) => fanOut.deliver('acct_b', entry)),
    ]);
    await fanOut.close();
    expect(await inboxLength('acct_a')).toBe(0);
    expect(await inboxLength('acct_b')).toBe(0);
    for (const hookId of hooks)
      expect((await waiting(hookId)).sort()).toEqual(['evt_a1', 'evt_a2', 'evt_a3', 'evt_b1', 'evt_b2']);
  });

  it('a deletion that fails keeps its own keys their hour; the other inbox of the window is deleted and cut', async () => {
    const bad = await accept('acct_bad', 'evt_x1');
    const good = await accept('acct_good', 'evt_g1');
    await breakInbox('acct_bad');
    const { fanOut } = wiring();
    // Both answered: the events are queued whatever becomes of their entries.
    await Promise.all([fanOut.deliver('acct_bad', bad), fanOut.deliver('acct_good', good)]);
    await fanOut.close();
    expect(await inboxLength('acct_good')).toBe(0);
    for (const hookId of hooks) {
      expect((await waiting(hookId)).sort()).toEqual(['evt_g1', 'evt_x1']);
      // Not done, so not cut: recovery may fan it out again, and the key still refuses the second add.
      expect(await dedupeTtl(hookId, 'evt_x1')).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);
      expect(await dedupeTtl(hookId, 'evt_g1')).toBeLessThanOrEqual(DEDUPE_AFTER_DONE_MS);
    }
  });
});
