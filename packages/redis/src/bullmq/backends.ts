import { createRedisBackend, type RedisQueueBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../keys';

const BACKENDS_KEPT = 4096;

/**
 * BullMQ's queue backends for hook queues, all on one shared connection: what BullMQ's own scripts
 * (add, moveToActive, moveToFinished, extendLock) run through without a Queue handle or a Worker per hook.
 * Opening a Queue handle costs an INFO (the version check) and a meta write on the wire; a backend is a few
 * key strings. Kept for the hooks used lately and forgotten wholesale past a bound, so memory stays flat
 * whatever the number of hooks.
 */
export class HookBackends {
  private readonly root: RedisQueueBackend;
  private readonly kept = new Map<string, RedisQueueBackend>();

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    lockMs?: number,
  ) {
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
      if (this.kept.size >= BACKENDS_KEPT) this.kept.clear();
      backend = this.root.forQueue(this.keys.hookQueueName(hookId)) as RedisQueueBackend;
      this.kept.set(hookId, backend);
    }
    return backend;
  }
}
