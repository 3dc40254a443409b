import { Lru } from '@hookline/core';
import { createRedisBackend, type RedisQueueBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../keys';

/**
 * Backends kept, the most lately used. A backend holds ≈ 4 KB of heap (its queue's key strings and bound
 * scripts; measured: 4,096 of them 16.5 MB) and takes ≈ 15 µs to make again, its garbage included. A worker
 * holds at most HOOKLINE_WORKER_MAX_HOOKS (1,000 by default) hooks at once, and a busy hook comes back within
 * seconds: a thousand covers what is held and what returns, in ≈ 4 MB; a quiet hook, back after minutes,
 * pays the 15 µs.
 */
export const BACKENDS_KEPT = 1024;

/**
 * BullMQ's queue backends for hook queues, all on one shared connection: what BullMQ's own scripts
 * (add, moveToActive, moveToFinished, extendLock) run through without a Queue handle or a Worker per hook.
 * Opening a Queue handle costs an INFO (the version check) and a meta write on the wire; a backend is a few
 * key strings. Kept for the hooks used most lately, the least lately used forgotten past a bound, so memory
 * stays flat whatever the number of hooks.
 */
export class HookBackends {
  private readonly root: RedisQueueBackend;
  private readonly kept: Lru<string, RedisQueueBackend>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    lockMs?: number,
    bound = BACKENDS_KEPT,
  ) {
    this.kept = new Lru(bound);
    // The root backend only lends its connection (a caller-owned client is shared, never closed) and its
    // options to the per-hook backends made by forQueue; it is bound to no real queue.
    this.root = createRedisBackend('hookline-root', {
      connection: redis,
      prefix: keys.prefix,
      ...(lockMs !== undefined ? { lockDuration: lockMs } : {}),
      skipVersionCheck: true,
    } as Parameters<typeof createRedisBackend>[1]);
    // The backend re-emits the connection's errors; the connection's owner logs them already, and an
    // 'error' event nobody listens to would throw.
    this.root.on('error', () => undefined);
  }

  of(hookId: string): RedisQueueBackend {
    let backend = this.kept.get(hookId);
    if (!backend) {
      backend = this.root.forQueue(this.keys.hookQueueName(hookId)) as RedisQueueBackend;
      this.kept.set(hookId, backend);
    }
    return backend;
  }
}
