import { randomBytes } from 'node:crypto';
import { ReadySet } from '@hookline/queue';
import { HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import type { useRedis } from '@hookline/testing';
import { HookControl } from '../control';

/** The production store, hook queues and hook control on a test's own Redis key prefix. */
export function suspensionForTest(ctx: Pick<ReturnType<typeof useRedis>, 'prefix' | 'redis'>): {
  keys: RedisKeys;
  hookQueues: HookQueues;
  store: Store;
  control: HookControl;
} {
  const keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  const store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
  });
  const ready = new ReadySet(ctx.redis, keys);
  const control = new HookControl({
    redis: ctx.redis,
    keys,
    hookQueues,
    store,
    signalReady: (hookId) => ready.signal([hookId]),
  });
  return { keys, hookQueues, store, control };
}
