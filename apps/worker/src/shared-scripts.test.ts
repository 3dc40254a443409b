import { Redis } from 'ioredis';
import { TEST_REDIS_URL, useRedis } from '@hookline/testing';
import { shareScriptsWithDuplicates } from './shared-scripts';

interface WithEcho {
  hooklineEcho(key: string, value: string): Promise<string>;
  scriptsSet: Record<string, unknown>;
}

describe('scripts shared with duplicates', () => {
  const ctx = useRedis('shared-scripts');

  it("a duplicate runs the parent's scripts over its own connection, and its pipelines copy none", async () => {
    const parent = shareScriptsWithDuplicates(new Redis(TEST_REDIS_URL, { lazyConnect: true }));
    parent.defineCommand('hooklineEcho', {
      numberOfKeys: 1,
      lua: "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])",
    });
    const copy = parent.duplicate() as Redis & WithEcho;
    ctx.onCleanup(() => copy.disconnect());
    // The parent never connects: the script can only have run over the duplicate's connection.
    parent.disconnect();
    expect(await copy.hooklineEcho(`${ctx.prefix}:k`, 'v1')).toBe('v1');
    expect(await ctx.redis.get(`${ctx.prefix}:k`)).toBe('v1');
    expect(copy.scriptsSet).toEqual({});
  });
});
