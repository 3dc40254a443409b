import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/core';
import { EVENTS_MAX_LEN } from './jobs';

/**
 * Administration of hook queues: one BullMQ queue per hook, processed with global concurrency 1 so that
 * exactly one event is in flight per hook across every worker process. The queue's paused flag is the
 * hook's suspension state, so Bull Board, the API and the website always agree.
 */
export class HookQueues {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * A Queue handle; BullMQ shares our connection, so this opens no socket. Every hook queue handle hookline
   * makes comes from here: on opening, a handle writes its event stream length into the queue's meta, and
   * they must all write the same one.
   */
  open(hookId: string): Queue {
    const queue = new Queue(this.keys.hookQueueName(hookId), {
      connection: this.redis,
      prefix: this.keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    // Connection errors reach the caller through the awaited command; without a listener BullMQ would also
    // print them as unhandled.
    queue.on('error', () => undefined);
    return queue;
  }

  private async with<T>(hookId: string, fn: (queue: Queue) => Promise<T>): Promise<T> {
    const queue = this.open(hookId);
    try {
      return await fn(queue);
    } finally {
      await queue.close();
    }
  }

  /** Creates the queue's metadata: concurrency 1 cluster-wide. Idempotent. */
  async setUp(hookId: string): Promise<void> {
    await this.with(hookId, (q) => q.setGlobalConcurrency(1));
  }

  async isPaused(hookId: string): Promise<boolean> {
    return (await this.redis.hget(this.keys.hookQueueMeta(hookId), 'paused')) !== null;
  }

  /**
   * Paused flags of many hooks. One command per hook, all sent at once (one round trip's wait): on a Redis
   * Cluster the hooks live on different shards, and a pipeline may not span shards.
   */
  async pausedMany(hookIds: readonly string[]): Promise<boolean[]> {
    const flags = await Promise.all(
      hookIds.map((id) => this.redis.hexists(this.keys.hookQueueMeta(id), 'paused')),
    );
    return flags.map((flag) => flag === 1);
  }

  async pause(hookId: string): Promise<void> {
    await this.with(hookId, (q) => q.pause());
  }

  async resume(hookId: string): Promise<void> {
    await this.with(hookId, (q) => q.resume());
  }

  /** Events waiting (or held, while paused) for this hook. */
  async waitingCount(hookId: string): Promise<number> {
    return this.with(hookId, (q) => q.getWaitingCount());
  }

  /**
   * True when the hook has events a worker could take now: not paused, and jobs waiting. Read straight from
   * BullMQ's keys in one round trip because the scheduler asks this every time it lets go of a queue (both
   * keys carry the hook's hash tag, so the pipeline stays on one shard).
   */
  async hasDeliverableWork(hookId: string): Promise<boolean> {
    const [[, paused], [, waiting]] = ((await this.redis
      .pipeline()
      .hexists(this.keys.hookQueueMeta(hookId), 'paused')
      .llen(this.keys.hookQueueKey(hookId, 'wait'))
      .exec()) ?? []) as [[unknown, number], [unknown, number]];
    return paused === 0 && waiting > 0;
  }

  /** Events waiting to be delivered in each of these hooks' queues, sent at once like `pausedMany`. */
  async waitingMany(hookIds: readonly string[]): Promise<number[]> {
    return Promise.all(hookIds.map((id) => this.redis.llen(this.keys.hookQueueKey(id, 'wait'))));
  }

  /** Removes the queue and every job in it; used when a hook is deleted. */
  async remove(hookId: string): Promise<void> {
    await this.with(hookId, (q) => q.obliterate({ force: true }));
  }
}
