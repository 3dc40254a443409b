import type { Redis } from 'ioredis';

/**
 * Removes every key under the bench's prefix (SCAN, never KEYS, so a shared Redis keeps serving). The same
 * as @hookline/testing's deletePrefix, which the bench cannot import: that package is test-only and has no
 * build for `pnpm bench` to run.
 */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
