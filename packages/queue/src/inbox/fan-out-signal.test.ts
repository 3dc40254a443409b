import type { DeliverableEvent } from '@hookline/core';
import { hookQueueLayout, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { ENGINE_SCRIPTS } from '@hookline/scheduler';
import { useRedis } from '@hookline/testing';
import { createInboxFanOut } from './fan-out';

// On one Redis, a fan-out's add signals its hook in the same script: the publish has no signal of its own to
// wait for, and no worker can be told of a hook before its job is there. Counted as Redis sees the commands.
describe('a fan-out on one Redis', () => {
  const ctx = useRedis('fanout-signal');
  const hooks = ['hk_a', 'hk_b'];
  let keys: RedisKeys;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    const queues = new HookQueues(ctx.redis, keys);
    for (const hookId of hooks) await queues.setUp(hookId);
  });

  it('signals every hook with its add, in one script per hook, and runs no separate signal', async () => {
    const { inbox, fanOut } = createInboxFanOut({ redis: ctx.redis, keys });
    ctx.closeLater(fanOut);
    const event: DeliverableEvent = { id: 'evt_1', type: 'call_created', fields: { call_id: 'c1' } };
    const acceptance = await inbox.accept({
      accountId: 'acct_a',
      event,
      acceptedAt: Date.now(),
      hooks,
      idempotencyTtlSeconds: 60,
      graceMs: 60_000,
      maxAbandoned: 0,
    });
    if (acceptance.kind !== 'accepted' || !acceptance.entry) throw new Error('not accepted');

    const watcher = ctx.redis.duplicate();
    const scripts: string[] = [];
    const monitor = await watcher.monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'evalsha' && args.slice(3).some((a) => a.startsWith(ctx.prefix)))
        scripts.push(args[1]!);
    });
    try {
      await fanOut.deliver('acct_a', acceptance.entry);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the monitor's lines arrive after the replies
    } finally {
      monitor.disconnect();
      watcher.disconnect();
    }

    for (const hookId of hooks) {
      expect(await ctx.redis.lrange(hookQueueLayout(keys, hookId).wait, 0, -1)).toEqual(['evt_1']);
      expect(await ctx.redis.zscore(keys.readyHooks(), hookId)).not.toBeNull();
      expect(await ctx.redis.zscore(keys.hooksWithWork(), hookId)).not.toBeNull();
    }
    expect(scripts).not.toContain(ENGINE_SCRIPTS.readySignal.sha);
    // The two adds (the inbox entry's deletion follows in a window of its own, and is an XDEL).
    expect(scripts).toHaveLength(2);
  });
});
