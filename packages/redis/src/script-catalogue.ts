import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LuaScript } from './lua-script';

/**
 * What is wrong with a folder of scripts and its catalogue: a .lua file the catalogue does not load, a script
 * without its `-- KEYS` header, or one Redis cannot compile (SCRIPT LOAD compiles without running). Each
 * package that owns scripts checks its folder with this in a test.
 */
export async function scriptFolderProblems(
  dir: string,
  catalogue: Readonly<Record<string, LuaScript>>,
  redis: { script(subcommand: 'LOAD', source: string): Promise<unknown> },
): Promise<string[]> {
  const problems: string[] = [];
  const loaded = new Set(Object.values(catalogue).map((s) => s.name));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.lua'))) {
    const name = file.replace(/\.lua$/, '');
    if (!loaded.has(name)) problems.push(`${file} is not in the catalogue`);
    if (!/-- KEYS/.test(readFileSync(join(dir, file), 'utf8')))
      problems.push(`${file} does not say its KEYS`);
  }
  for (const script of Object.values(catalogue)) {
    if (/--!include/.test(script.source)) problems.push(`${script.name}: an include was not expanded`);
    try {
      if ((await redis.script('LOAD', script.source)) !== script.sha)
        problems.push(`${script.name}: another SHA`);
    } catch (error) {
      problems.push(`${script.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}
