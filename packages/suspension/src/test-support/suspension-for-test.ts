import { randomBytes } from 'node:crypto';
import type { AttemptRecord } from '@hookline/core';
import { DeliveryLog } from '@hookline/history';
import { ReadySet } from '@hookline/scheduler';
import { HistoryOutbox, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import type { useRedis } from '@hookline/testing';
import { HookControl } from '../control';
import type { SuspensionStore } from '../recording';

/**
 * A hook's records as the outbox holds them, newest first. These tests run no history writer, so every
 * record stays in the hook's Redis outbox: reading it there reads everything that was recorded.
 */
export function outboxRecords(outbox: HistoryOutbox) {
  return async (hookId: string, limit = 1000): Promise<AttemptRecord[]> =>
    (await outbox.pending(hookId))
      .map((entry) => JSON.parse(entry) as AttemptRecord)
      .reverse()
      .slice(0, limit);
}

/**
 * The production store, hook queues and hook control on a test's own Redis key prefix; `holdMax` is
 * HOOKLINE_HOLD_MAX (its default, 10000, unless given).
 */
export function suspensionForTest(
  ctx: Pick<ReturnType<typeof useRedis>, 'prefix' | 'redis'>,
  holdMax = 10_000,
): {
  keys: RedisKeys;
  hookQueues: HookQueues;
  store: Store & SuspensionStore;
  outbox: HistoryOutbox;
  records: (hookId: string, limit?: number) => Promise<AttemptRecord[]>;
  control: HookControl;
} {
  const keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  const base = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
  });
  const outbox = new HistoryOutbox(ctx.redis, keys);
  const records = outboxRecords(outbox);
  const reader = {
    listForHook: async (hookId: string, _: unknown, page: { limit: number }) => ({
      data: await records(hookId, page.limit),
    }),
  };
  const store = { ...base, deliveryLog: new DeliveryLog(outbox, reader), historyOutbox: outbox };
  const ready = new ReadySet(ctx.redis, keys);
  const control = new HookControl({
    redis: ctx.redis,
    keys,
    hookQueues,
    store,
    holdMax,
    signalReady: (hookId) => ready.signal([hookId]),
  });
  return { keys, hookQueues, store, outbox, records, control };
}
