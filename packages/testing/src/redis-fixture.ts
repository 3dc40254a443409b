import { randomBytes } from 'node:crypto';
import IORedis, { type Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A unique key prefix, so that parallel tests share one real Redis without seeing each other. */
export function uniquePrefix(label = 't'): string {
  return `test-${label}-${randomBytes(5).toString('hex')}`;
}

export function connectRedis(): Redis {
  return new IORedis(TEST_REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** Deletes every key under a prefix (SCAN, never KEYS). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/**
 * Per-test Redis context: call in a describe block. Gives each test a fresh prefix and a connection, and
 * removes that prefix's keys afterwards. Things registered with `ctx.closeLater` are closed in reverse order
 * before the keys are removed, so no Worker or Queue leaks into the next test.
 */
export function useRedis(label?: string) {
  const ctx = {
    prefix: '',
    redis: undefined as unknown as Redis,
    closers: [] as (() => Promise<unknown> | unknown)[],
    closeLater<T extends { close(): Promise<unknown> | unknown }>(thing: T): T {
      ctx.closers.push(() => thing.close());
      return thing;
    },
    onCleanup(fn: () => Promise<unknown> | unknown): void {
      ctx.closers.push(fn);
    },
  };
  beforeEach(() => {
    ctx.prefix = uniquePrefix(label);
    ctx.redis = connectRedis();
  });
  afterEach(async () => {
    for (const close of ctx.closers.reverse()) await close();
    ctx.closers = [];
    await deletePrefix(ctx.redis, ctx.prefix);
    ctx.redis.disconnect();
  });
  return ctx;
}
