import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRedis } from '@hookline/testing';
import { BULLMQ_SCRIPTS } from './bullmq/scripts';
import { expandIncludes, loadScript, LuaScript } from './lua-script';
import { scriptFolderProblems } from './script-catalogue';
import { SCRIPTS } from './scripts';

describe('Lua scripts', () => {
  const ctx = useRedis('scripts');

  it("this package's folders and catalogues: every file loaded, saying its KEYS, compiling", async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), SCRIPTS, ctx.redis)).toEqual([]);
    expect(
      await scriptFolderProblems(join(__dirname, 'bullmq', 'scripts'), BULLMQ_SCRIPTS, ctx.redis),
    ).toEqual([]);
  });

  it('finds a file missing from a catalogue, a script without its header, and one that does not compile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-scripts-'));
    ctx.onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'listed.lua'), '-- KEYS: none.\nreturn 1\n');
    writeFileSync(join(dir, 'unlisted.lua'), '-- KEYS: none.\nreturn 2\n');
    writeFileSync(join(dir, 'headless.lua'), 'return 3\n');
    const problems = await scriptFolderProblems(
      dir,
      {
        listed: loadScript('listed', dir),
        headless: loadScript('headless', dir),
        broken: new LuaScript('broken', 'return {'),
      },
      ctx.redis,
    );
    expect(problems.sort()).toEqual([
      expect.stringMatching(/^broken: ERR Error compiling script/),
      'headless.lua does not say its KEYS',
      'unlisted.lua is not in the catalogue',
    ]);
  });

  it('refuses an include cycle, naming it', () => {
    const files: Record<string, string> = { 'a.lua': '--!include b.lua', 'b.lua': '--!include a.lua' };
    expect(() => expandIncludes('--!include a.lua', (f) => files[f]!)).toThrow(
      'Lua include cycle: a.lua -> b.lua -> a.lua',
    );
  });

  it('runs by SHA, loading the script once on a server that does not know it', async () => {
    // A source no server has seen (the test's own prefix in a comment), without flushing other tests' scripts.
    const script = new LuaScript('probe', `-- ${ctx.prefix}\nreturn redis.call('INCR', KEYS[1])`);
    expect(await ctx.redis.script('EXISTS', script.sha)).toEqual([0]);
    expect(await script.run(ctx.redis, [`${ctx.prefix}:n`], [])).toBe(1);
    expect(await ctx.redis.script('EXISTS', script.sha)).toEqual([1]);
  });
});
