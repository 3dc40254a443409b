import { FlowProducer } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  type DeliverableEvent,
  type PublishEventInput,
  type RedisKeys,
  formatEventTimestamp,
  HooklineError,
  newId,
} from '@hookline/core';
import { DELIVER_JOB, KEEP_COMPLETED, KEEP_FAILED, type DeliverJobData } from './jobs';
import { ReadySet } from './scheduler/ready-set';

export interface PublishResult {
  readonly id: string;
  readonly hooks: string[];
  /** True when this idempotency key was accepted before: the answer is the original one, nothing was enqueued. */
  readonly duplicate: boolean;
}

export interface ProducerDeps {
  redis: Redis;
  keys: RedisKeys;
  clock?: () => Date;
  idempotencyTtlSeconds?: number;
  /** Called with the hooks that were paused when the event arrived, so the hold cap can drop the oldest. */
  onHeld?: (hookIds: readonly string[]) => Promise<unknown>;
}

const PENDING = 'pending';
const DAY_SECONDS = 24 * 3600;

/**
 * Accepts events and fans each one out to every hook of its account, all or none: the jobs for every hook
 * are added in one Redis transaction (FlowProducer.addBulk), so either every hook's queue has the event or
 * none does. The job id is the event id, so a hook never holds the same event twice.
 */
export class Producer {
  private readonly flows: FlowProducer;
  private readonly ready: ReadySet;
  private readonly clock: () => Date;
  private readonly ttl: number;

  constructor(private readonly deps: ProducerDeps) {
    this.flows = new FlowProducer({ connection: deps.redis, prefix: deps.keys.prefix });
    this.ready = new ReadySet(deps.redis, deps.keys);
    this.clock = deps.clock ?? (() => new Date());
    this.ttl = deps.idempotencyTtlSeconds ?? DAY_SECONDS;
  }

  async publish(accountId: string, input: PublishEventInput): Promise<PublishResult> {
    if (input.id === undefined) return this.fanOut(accountId, input, await this.hookIdsOf(accountId));
    const idemKey = this.deps.keys.accountIdempotency(accountId, input.id);
    const earlier = await this.claimIdempotencyKey(idemKey);
    if (earlier) return { ...earlier, duplicate: true };
    try {
      const result = await this.fanOut(accountId, input, await this.hookIdsOf(accountId));
      await this.deps.redis.set(
        idemKey,
        JSON.stringify({ id: result.id, hooks: result.hooks }),
        'EX',
        this.ttl,
      );
      return result;
    } catch (error) {
      await this.deps.redis.del(idemKey).catch(() => undefined);
      throw error;
    }
  }

  /** A sample call_created to one hook, in sequence with its other events. */
  async publishTest(accountId: string, hookId: string): Promise<{ id: string }> {
    const sample: PublishEventInput = {
      type: 'call_created',
      data: {
        call_id: `test-${newId('evt').slice(4, 16)}`,
        direction: 'outbound',
        from: 'hookline-test',
        from_cnam: 'hookline test event',
        to: '0000000000',
        rate: '0.0',
      },
    };
    const { id } = await this.fanOut(accountId, sample, [hookId]);
    return { id };
  }

  async close(): Promise<void> {
    await this.flows.close();
  }

  private async hookIdsOf(accountId: string): Promise<string[]> {
    return (await this.deps.redis.smembers(this.deps.keys.accountHooks(accountId))).sort();
  }

  // SET NX marks the key as being accepted; a concurrent request with the same key waits for the first one's
  // answer instead of enqueuing the event a second time.
  private async claimIdempotencyKey(key: string): Promise<{ id: string; hooks: string[] } | undefined> {
    for (let waited = 0; ; waited += 50) {
      const claimed = await this.deps.redis.set(key, PENDING, 'EX', 60, 'NX');
      if (claimed === 'OK') return undefined;
      const value = await this.deps.redis.get(key);
      if (value && value !== PENDING) return JSON.parse(value) as { id: string; hooks: string[] };
      if (waited >= 5000)
        throw new HooklineError('CONFLICT', 'An event with this id is still being accepted; retry');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async fanOut(
    accountId: string,
    input: PublishEventInput,
    hookIds: string[],
  ): Promise<PublishResult> {
    const now = this.clock();
    const event = toDeliverable(newId('evt', now.getTime()), input, now);
    if (hookIds.length === 0) return { id: event.id, hooks: [], duplicate: false };
    // Signal before adding: a worker that wakes early finds the queue empty and waits for the jobs; a
    // signal sent after the add could be lost if this process died in between.
    await this.ready.signal(hookIds);
    await this.flows.addBulk(
      hookIds.map((hookId) => ({
        name: DELIVER_JOB,
        queueName: this.deps.keys.hookQueueName(hookId),
        data: { accountId, hookId, event, acceptedAt: now.getTime() } satisfies DeliverJobData,
        opts: { jobId: event.id, attempts: 1, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
      })),
    );
    if (this.deps.onHeld) await this.notifyHeld(hookIds);
    return { id: event.id, hooks: hookIds, duplicate: false };
  }

  private async notifyHeld(hookIds: readonly string[]): Promise<void> {
    const pipeline = this.deps.redis.pipeline();
    for (const id of hookIds) pipeline.hexists(this.deps.keys.hookQueueMeta(id), 'paused');
    const flags = (await pipeline.exec()) ?? [];
    const held = hookIds.filter((_, i) => flags[i]?.[1] === 1);
    if (held.length > 0) await this.deps.onHeld?.(held);
  }
}

function toDeliverable(id: string, input: PublishEventInput, now: Date): DeliverableEvent {
  const { date, ...rest } = input.data;
  return {
    id,
    type: input.type,
    fields: { EventType: input.type, ...rest, date: date ?? formatEventTimestamp(now) },
  };
}
