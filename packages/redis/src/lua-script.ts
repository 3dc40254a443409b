import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Arg = string | number | Buffer;
/** The two ioredis calls a script needs (a Redis or a Cluster client). */
export interface ScriptClient {
  evalsha(sha: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
  eval(source: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
}

/**
 * A Lua script sent by its SHA1, so calls do not ship the script text each time. The first call on a server
 * that has not seen it (or after a restart or failover) falls back to EVAL, which also caches it there.
 * Every script hookline runs goes this one way.
 */
export class LuaScript {
  readonly sha: string;

  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: unknown, keys: readonly string[], args: readonly Arg[]): Promise<unknown> {
    const redis = client as ScriptClient;
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

// Scripts live as .lua files in a `scripts` folder beside the code that owns them (copied next to the
// compiled code by each package's build). A line `--!include NAME.lua` is replaced by this package's
// scripts/include/NAME.lua: fragments shared by several scripts are written once, whichever package owns the
// script, and each script is still sent to Redis whole.
const SCRIPTS_DIR = join(__dirname, 'scripts');
const INCLUDE_DIR = join(SCRIPTS_DIR, 'include');
const INCLUDE = /^--!include ([a-z0-9-]+\.lua)$/gm;

export function expandIncludes(source: string, read: (file: string) => string, seen: string[] = []): string {
  return source.replace(INCLUDE, (_, file: string) => {
    if (seen.includes(file)) throw new Error(`Lua include cycle: ${[...seen, file].join(' -> ')}`);
    return expandIncludes(read(file).trimEnd(), read, [...seen, file]);
  });
}

/** Reads `dir`/NAME.lua (by default this package's scripts/), with its includes, once at start-up. */
export function loadScript(name: string, dir = SCRIPTS_DIR): LuaScript {
  const source = readFileSync(join(dir, `${name}.lua`), 'utf8');
  return new LuaScript(
    name,
    expandIncludes(source, (file) => readFileSync(join(INCLUDE_DIR, file), 'utf8')),
  );
}
