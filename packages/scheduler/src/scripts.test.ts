import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRedis } from '@hookline/testing';
import { ENGINE_SCRIPTS } from './scripts';

const DIR = join(__dirname, 'scripts');

describe("the engine's Lua scripts", () => {
  const ctx = useRedis('engine-scripts');

  it('every .lua file is in the catalogue, says its KEYS and ARGV, and compiles', async () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.lua'))
      .map((f) => f.replace(/\.lua$/, ''));
    expect(
      Object.values(ENGINE_SCRIPTS)
        .map((s) => s.name)
        .sort(),
    ).toEqual(files.sort());
    for (const script of Object.values(ENGINE_SCRIPTS)) {
      expect(readFileSync(join(DIR, `${script.name}.lua`), 'utf8')).toMatch(/-- KEYS/);
      expect(await ctx.redis.script('LOAD', script.source)).toBe(script.sha);
    }
  });
});
