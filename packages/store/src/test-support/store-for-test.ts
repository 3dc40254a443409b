import { randomBytes } from 'node:crypto';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { HookQueues } from '@hookline/redis';
import type { useRedis } from '@hookline/testing';
import { createStore, type Store, type StoreDeps } from '../create-store';
import { SecretBox } from '../secret-box';

/** The production store on the test's Redis prefix, with a fresh credentials key. */
export function storeForTest(
  ctx: Pick<ReturnType<typeof useRedis>, 'prefix' | 'redis'>,
  options: Pick<StoreDeps, 'activityMax' | 'clock' | 'catalog' | 'suspensionRule'> = {},
): { store: Store; keys: RedisKeys } {
  const keys = redisKeys(ctx.prefix);
  const store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: new HookQueues(ctx.redis, keys),
    ...options,
  });
  return { store, keys };
}
