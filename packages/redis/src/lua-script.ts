import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'ioredis';
import { ScriptCommand } from './script-command';

type Arg = string | number | Buffer;
/** The ioredis call a script needs (a Redis or a Cluster client). */
export interface ScriptClient {
  sendCommand(command: Command): Promise<unknown>;
}

// Replies as text, as `redis.evalsha` gives them (its Buffer twin, `evalshaBuffer`, would give Buffers).
const UTF8_REPLIES = { replyEncoding: 'utf8' } as const;

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
      return await redis.sendCommand(
        new ScriptCommand('evalsha', [this.sha, keys.length, ...keys, ...args], UTF8_REPLIES),
      );
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.sendCommand(
        new ScriptCommand('eval', [this.source, keys.length, ...keys, ...args], UTF8_REPLIES),
      );
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
