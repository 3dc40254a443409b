import type { ChainableCommander, Redis } from 'ioredis';

/**
 * A newest-first list of JSON entries that never grows past `max`: LPUSH and LTRIM go in one MULTI, so a
 * reader never sees the list over its bound and a crash between the two cannot leave it unbounded.
 */
export class CappedJsonList<T> {
  constructor(
    private readonly redis: Redis,
    private readonly max: number,
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`a capped list needs a positive bound, got ${max}`);
  }

  /** Adds the push to a transaction the caller is building, so the entry commits with the caller's writes. */
  pushInto(tx: ChainableCommander, key: string, entry: T): ChainableCommander {
    return tx.lpush(key, JSON.stringify(entry)).ltrim(key, 0, this.max - 1);
  }

  async push(key: string, entry: T): Promise<void> {
    await execOrThrow(this.pushInto(this.redis.multi(), key, entry));
  }

  async list(key: string, limit: number): Promise<T[]> {
    const count = Math.min(Math.floor(limit), this.max);
    if (!(count >= 1)) return [];
    const rows = await this.redis.lrange(key, 0, count - 1);
    return rows.map((row) => JSON.parse(row) as T);
  }
}

/** EXEC answers per-command errors as values; a transaction that half-failed must not pass silently. */
export async function execOrThrow(tx: ChainableCommander): Promise<unknown[]> {
  const results = await tx.exec();
  if (!results) throw new Error('Redis transaction was aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
