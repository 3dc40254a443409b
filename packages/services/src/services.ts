import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { createHoldCap } from '@hookline/suspension';
import { HookControl } from '@hookline/suspension';
import { HookQueues } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { type LogSink, type Clock, type EventCatalog } from '@hookline/core';
import { ReadySet } from '@hookline/queue';

export interface ServiceSettings {
  readonly HOOKLINE_QUEUE_PREFIX: string;
  readonly HOOKLINE_HOLD_MAX: number;
  readonly HOOKLINE_DELIVERY_LOG_MAX: number;
  /** The event kinds (HOOKLINE_EVENT_CATALOG, loaded with the config); call_created alone when absent. */
  readonly eventCatalog?: EventCatalog;
}

export interface Services {
  readonly keys: RedisKeys;
  readonly hookQueues: HookQueues;
  readonly store: Store;
  readonly producer: Producer;
  readonly control: HookControl;
  readonly ready: ReadySet;
  close(): Promise<void>;
}

/**
 * The domain services every front door shares (API, website, Bull Board), wired once: the store, the
 * producer with the hold cap for suspended hooks, and hook control with its wake-up signal to the workers.
 */
export function createServices(deps: {
  redis: Redis;
  settings: ServiceSettings;
  secretKey: Buffer;
  log?: LogSink;
  clock?: Clock;
}): Services {
  const { redis, settings } = deps;
  const catalog = settings.eventCatalog;
  const keys = redisKeys(settings.HOOKLINE_QUEUE_PREFIX);
  const hookQueues = new HookQueues(redis, keys);
  const store = createStore({
    redis,
    keys,
    secretBox: SecretBox.fromKey(deps.secretKey),
    hookQueues,
    deliveryLogMax: settings.HOOKLINE_DELIVERY_LOG_MAX,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(catalog ? { catalog } : {}),
  });
  const holdCap = createHoldCap({ hookQueues, deliveryLog: store.deliveryLog });
  const producer = new Producer({
    redis,
    keys,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(catalog ? { catalog } : {}),
    // Past HOOKLINE_HOLD_MAX held events, a suspended hook drops its oldest (recorded `expired`).
    onHeld: (hookIds) => Promise.all(hookIds.map((id) => holdCap(id, settings.HOOKLINE_HOLD_MAX))),
  });
  const ready = new ReadySet(redis, keys);
  const control = new HookControl({
    redis,
    keys,
    hookQueues,
    store,
    signalReady: (hookId) => ready.signal([hookId]),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return { keys, hookQueues, store, producer, control, ready, close: () => producer.close() };
}
