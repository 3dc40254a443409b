import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRedis } from '@hookline/testing';
import { expandIncludes, loadScript, LuaScript } from './lua-script';
import { BULLMQ_SCRIPTS } from './bullmq/scripts';
import { SCRIPTS } from './scripts';

const DIR = join(__dirname, 'scripts');

describe('Lua scripts', () => {
  const ctx = useRedis('scripts');

  it('every .lua file is in the catalogue, and every catalogued script says its KEYS and ARGV', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.lua'))
      .map((f) => f.replace(/\.lua$/, ''));
    expect(
      Object.values(SCRIPTS)
        .map((s) => s.name)
        .sort(),
    ).toEqual(files.sort());
    for (const name of files) expect(readFileSync(join(DIR, `${name}.lua`), 'utf8')).toMatch(/-- KEYS/);
  });

  it('includes are expanded, so Redis gets each script whole and compiles it', async () => {
    for (const script of Object.values(SCRIPTS)) {
      expect(script.source).not.toMatch(/--!include/);
      // SCRIPT LOAD compiles without running: a syntax error in any script or fragment fails here.
      expect(await ctx.redis.script('LOAD', script.source)).toBe(script.sha);
    }
  });

  it('refuses an include cycle, naming it', () => {
    const files: Record<string, string> = { 'a.lua': '--!include b.lua', 'b.lua': '--!include a.lua' };
    expect(() => expandIncludes('--!include a.lua', (f) => files[f]!)).toThrow(
      'Lua include cycle: a.lua -> b.lua -> a.lua',
    );
  });

  it('runs by SHA, loading the script once on a server that does not know it', async () => {
    // A source no server has seen (the test's own prefix in a comment), without flushing other tests' scripts.
    const script = new LuaScript('probe', `-- ${ctx.prefix}\n${loadScript('inbox-mark').source}`);
    expect(await ctx.redis.script('EXISTS', script.sha)).toEqual([0]);
    await script.run(ctx.redis, [`${ctx.prefix}:index`], ['acct_1']);
    expect(await ctx.redis.script('EXISTS', script.sha)).toEqual([1]);
    expect(await ctx.redis.zscore(`${ctx.prefix}:index`, 'acct_1')).not.toBeNull();
  });
});

describe("the scripts over BullMQ's keys", () => {
  const ctx = useRedis('bullmq-scripts');
  const dir = join(__dirname, 'bullmq', 'scripts');

  it('every .lua file of the BullMQ folder is in its catalogue, says its KEYS, and compiles', async () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.lua'))
      .map((f) => f.replace(/\.lua$/, ''));
    expect(
      Object.values(BULLMQ_SCRIPTS)
        .map((s) => s.name)
        .sort(),
    ).toEqual(files.sort());
    for (const script of Object.values(BULLMQ_SCRIPTS)) {
      expect(readFileSync(join(dir, `${script.name}.lua`), 'utf8')).toMatch(/-- KEYS/);
      expect(await ctx.redis.script('LOAD', script.source)).toBe(script.sha);
    }
  });
});
