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

/** Every key matching a glob pattern (SCAN, never KEYS). */
export async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}

/** Deletes every key under a prefix. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysMatching(redis, `${prefix}:*`);
  for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
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
