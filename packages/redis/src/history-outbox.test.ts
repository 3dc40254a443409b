import { useRedis } from '@hookline/testing';
import { HistoryOutbox } from './history-outbox';
import { redisKeys } from './keys';
import { SCRIPTS } from './scripts';

describe("the history outbox: a writer's round read and trimmed in one call each on one Redis", () => {
  const ctx = useRedis('outbox');
  const setUp = () => {
    const keys = redisKeys(ctx.prefix);
    return { keys, outbox: new HistoryOutbox(ctx.redis, keys) };
  };
  const fill = async (keys: ReturnType<typeof redisKeys>, hookId: string, n: number) => {
    const records = Array.from({ length: n }, (_, i) => JSON.stringify({ hook: hookId, i }));
    if (n > 0) await ctx.redis.rpush(keys.hookHistoryOutbox(hookId), ...records);
    return records;
  };

  it('reads each hook its oldest records with its erasure counter, an empty hook as empty', async () => {
    const { keys, outbox } = setUp();
    const a = await fill(keys, 'hk_a', 3);
    const b = await fill(keys, 'hk_b', 2);
    await ctx.redis.set(keys.hookHistoryOutboxErasures('hk_b'), '4');
    expect(await outbox.read(['hk_a', 'hk_empty', 'hk_b'], 2)).toEqual([
      { hookId: 'hk_a', entries: a.slice(0, 2), erasures: '' },
      { hookId: 'hk_empty', entries: [], erasures: '' },
      { hookId: 'hk_b', entries: b, erasures: '4' },
    ]);
  });

  it('reads a backlog in several calls, each ending after the hook that reaches the limit, every hook whole', async () => {
    const { keys, outbox } = setUp();
    const filled = [await fill(keys, 'hk_1', 3), await fill(keys, 'hk_2', 1), await fill(keys, 'hk_3', 2)];
    const calls = jest.spyOn(SCRIPTS.historyOutboxRead, 'run');
    try {
      const slices = await outbox.read(['hk_1', 'hk_2', 'hk_3'], 500, 2);
      expect(slices.map((s) => s.entries)).toEqual(filled);
      // hk_1 alone passes the limit; hk_2 and hk_3 together reach it.
      expect(calls).toHaveBeenCalledTimes(2);
    } finally {
      calls.mockRestore();
    }
  });

  it('trims what each slice read, and nothing of a hook trimmed by another writer or emptied by an erasure since', async () => {
    const { keys, outbox } = setUp();
    await fill(keys, 'hk_ok', 3);
    await fill(keys, 'hk_taken', 2);
    await fill(keys, 'hk_erased', 2);
    const slices = await outbox.read(['hk_ok', 'hk_taken', 'hk_erased', 'hk_none'], 2);
    // Another writer wrote and trimmed hk_taken's head; an erasure moved hk_erased's counter.
    await ctx.redis.lpop(keys.hookHistoryOutbox('hk_taken'));
    await ctx.redis.incr(keys.hookHistoryOutboxErasures('hk_erased'));
    expect(await outbox.ackAll(slices)).toEqual([1, -1, -1, 0]);
    expect(await ctx.redis.lrange(keys.hookHistoryOutbox('hk_ok'), 0, -1)).toEqual([
      JSON.stringify({ hook: 'hk_ok', i: 2 }),
    ]);
    expect(await ctx.redis.llen(keys.hookHistoryOutbox('hk_taken'))).toBe(1);
    expect(await ctx.redis.llen(keys.hookHistoryOutbox('hk_erased'))).toBe(2);
    // Acknowledged twice (a writer whose first ack's answer was lost), nothing more goes.
    expect(await outbox.ackAll(slices.slice(0, 1))).toEqual([-1]);
    expect(await ctx.redis.llen(keys.hookHistoryOutbox('hk_ok'))).toBe(1);
  });
});
