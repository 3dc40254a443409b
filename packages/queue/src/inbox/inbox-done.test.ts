import type { DeliverableEvent } from '@hookline/core';
import { hookQueueLayout, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { DEDUPE_TTL_MS } from '../jobs';
import type { InboxEntry } from './account-inbox';
import { createInboxFanOut } from './fan-out';

// The entries done in one turn leave in one XDEL per account inbox: on a real Redis, every publish still gets
// its own entry deleted, and a deletion that fails fails the publishes whose entries it carried, and only them.
describe('inbox entries done in one turn', () => {
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
      maxAbandoned: 10, // none is old enough; 0 would make XRANGE answer nil once the inbox has an entry
    });
    if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');
    return acceptance.entry;
  }

  it('fan-outs finishing together each get their own entry deleted, in every account', async () => {
    const a = await Promise.all(['evt_a1', 'evt_a2', 'evt_a3'].map((id) => accept('acct_a', id)));
    const b = await Promise.all(['evt_b1', 'evt_b2'].map((id) => accept('acct_b', id)));
    const { fanOut } = wiring();
    await Promise.all([
      ...a.map((entry) => fanOut.deliver('acct_a', entry)),
      ...b.map((entry) => fanOut.deliver('acct_b', entry)),
    ]);
    expect(await inboxLength('acct_a')).toBe(0);
    expect(await inboxLength('acct_b')).toBe(0);
    for (const hookId of hooks)
      expect((await waiting(hookId)).sort()).toEqual(['evt_a1', 'evt_a2', 'evt_a3', 'evt_b1', 'evt_b2']);
  });

  it('asked in one turn, the entries of one inbox leave in one command, each caller answered', async () => {
    const a = await Promise.all(['evt_a1', 'evt_a2', 'evt_a3'].map((id) => accept('acct_a', id)));
    const [b] = await Promise.all([accept('acct_b', 'evt_b1')]);
    const { inbox } = wiring();
    const sent = jest.spyOn(ctx.redis, 'call');
    try {
      const answers = await Promise.all([
        ...a.map((entry) => inbox.done('acct_a', entry.id)),
        inbox.done('acct_b', b!.id),
      ]);
      expect(answers).toEqual([true, true, true, true]);
      expect(sent.mock.calls.filter(([command]) => command === 'XDEL')).toHaveLength(2);
    } finally {
      sent.mockRestore();
    }
    expect(await inboxLength('acct_a')).toBe(0);
    expect(await inboxLength('acct_b')).toBe(0);
  });

  it('a deletion that fails fails the publishes of that inbox, not those of another in the same turn', async () => {
    const bad = await Promise.all(['evt_x1', 'evt_x2'].map((id) => accept('acct_bad', id)));
    const good = await accept('acct_good', 'evt_g1');
    await breakInbox('acct_bad');
    const { inbox } = wiring();
    const outcomes = await Promise.allSettled([
      ...bad.map((entry) => inbox.done('acct_bad', entry.id)),
      inbox.done('acct_good', good.id),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
    expect(await inboxLength('acct_good')).toBe(0);
  });

  it('a publish whose entry cannot be done answers with the error, and its keys keep their hour', async () => {
    const entry = await accept('acct_bad', 'evt_x1');
    await breakInbox('acct_bad');
    const { fanOut } = wiring();
    await expect(fanOut.deliver('acct_bad', entry)).rejects.toThrow(/WRONGTYPE/);
    await fanOut.close();
    // The event is in every queue, but the entry was not done: no cut, recovery may fan it out again.
    for (const hookId of hooks) {
      expect(await waiting(hookId)).toEqual(['evt_x1']);
      const dedupe = hookQueueLayout(keys, hookId).deduplication('evt_x1');
      expect(await ctx.redis.pttl(dedupe)).toBeGreaterThan(DEDUPE_TTL_MS - 60_000);
    }
  });
});
