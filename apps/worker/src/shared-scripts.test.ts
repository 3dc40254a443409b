import { Redis } from 'ioredis';
import { SCRIPTS } from '@hookline/redis';
import { TEST_REDIS_URL, useRedis } from '@hookline/testing';
import { shareScriptsWithDuplicates } from './shared-scripts';

interface WithMark {
  hooklineMark(key: string, accountId: string): Promise<unknown>;
  scriptsSet: Record<string, unknown>;
}

describe('scripts shared with duplicates', () => {
  const ctx = useRedis('shared-scripts');

  it("a duplicate runs the parent's scripts over its own connection, and its pipelines copy none", async () => {
    const parent = shareScriptsWithDuplicates(new Redis(TEST_REDIS_URL, { lazyConnect: true }));
    parent.defineCommand('hooklineMark', { numberOfKeys: 1, lua: SCRIPTS.inboxMark.source });
    const copy = parent.duplicate() as Redis & WithMark;
    ctx.onCleanup(() => copy.disconnect());
    // The parent never connects: the script can only have run over the duplicate's connection.
    parent.disconnect();
    await copy.hooklineMark(`${ctx.prefix}:k`, 'acct_1');
    expect(await ctx.redis.zscore(`${ctx.prefix}:k`, 'acct_1')).not.toBeNull();
    expect(copy.scriptsSet).toEqual({});
  });
});
