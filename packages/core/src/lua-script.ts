import { createHash } from 'node:crypto';

type Arg = string | number;
/** The two ioredis calls a script needs (a Redis or a Cluster client). */
export interface ScriptClient {
  evalsha(sha: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
  eval(source: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
}

/**
 * A Lua script sent by its SHA1, so hot paths do not ship the script text with every call. The first call on
 * a server that has not seen it (or after a restart or failover) falls back to EVAL, which also caches it there.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
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
