import type { Redis } from 'ioredis';
import type { Clock, EventCatalog, LogSink, Tracing } from '@hookline/core';
import { Producer } from '@hookline/queue';
import type { HistoryOutbox, HookQueues, RedisKeys } from '@hookline/redis';
import type { Store } from '@hookline/store';
import { createHoldCap } from '@hookline/suspension';

/**
 * The producer as every front door and the in-process producer get it: the store's erasure tags, the
 * catalogue, and the hold cap. One place, so a producer built for a service cannot drift from the HTTP tier's.
 */
export function wireProducer(deps: {
  redis: Redis;
  keys: RedisKeys;
  store: Pick<Store, 'erasureTags'>;
  hookQueues: HookQueues;
  outbox: HistoryOutbox;
  /** HOOKLINE_HOLD_MAX. */
  holdMax: number;
  catalog?: EventCatalog;
  clock?: Clock;
  log?: LogSink;
  tracing?: Tracing;
}): Producer {
  const holdCap = createHoldCap({ hookQueues: deps.hookQueues, outbox: deps.outbox });
  return new Producer({
    redis: deps.redis,
    keys: deps.keys,
    erasureTags: deps.store.erasureTags,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.catalog ? { catalog: deps.catalog } : {}),
    ...(deps.tracing ? { tracing: deps.tracing } : {}),
    // Past HOOKLINE_HOLD_MAX held events, a suspended hook drops its oldest (recorded `expired`).
    onHeld: (hookIds) => Promise.all(hookIds.map((id) => holdCap(id, deps.holdMax))),
  });
}
