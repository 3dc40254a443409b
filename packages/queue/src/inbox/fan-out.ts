import { FlowProducer } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/core';
import { DELIVER_JOB, DEDUPE_TTL_MS, KEEP_COMPLETED, KEEP_FAILED, type DeliverJobData } from '../jobs';
import { ReadySet } from '../scheduler/ready-set';
import { AccountInbox, type InboxEntry } from './account-inbox';

export interface FanOutDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly inbox: AccountInbox;
  /** Called with the hooks that were paused when the event arrived, so the hold cap can drop the oldest. */
  readonly onHeld?: (hookIds: readonly string[]) => Promise<unknown>;
}

/**
 * Puts one accepted event into the queue of every hook of its entry, then deletes the entry. Each add is a
 * transaction in that hook's own slot, and is idempotent: the job id and BullMQ's deduplication id are the
 * event id, and the deduplication key outlives the job (it expires after a day), so repeating a fan-out that
 * was interrupted never gives a hook the event twice, even after the hook has delivered it.
 */
/** The account inbox and the fan-out that empties it, wired together (the producer and recovery both need them). */
export function createInboxFanOut(deps: Omit<FanOutDeps, 'inbox'>): { inbox: AccountInbox; fanOut: FanOut } {
  const inbox = new AccountInbox(deps.redis, deps.keys);
  return { inbox, fanOut: new FanOut({ ...deps, inbox }) };
}

export class FanOut {
  private readonly flows: FlowProducer;
  private readonly ready: ReadySet;

  constructor(private readonly deps: FanOutDeps) {
    // A FlowProducer adds a single job in one MULTI on the job's queue (one slot), with one connection check
    // for the process instead of one per Queue handle.
    this.flows = new FlowProducer({ connection: deps.redis, prefix: deps.keys.prefix });
    this.flows.on('error', () => undefined);
    this.ready = new ReadySet(deps.redis, deps.keys);
  }

  /**
   * `late`: the entry was left by a process that died mid-fan-out. Hooks deleted since it was accepted are
   * skipped then, so that their obliterated queues are not brought back to life.
   */
  async deliver(accountId: string, entry: InboxEntry, late = false): Promise<void> {
    const hookIds = late ? await this.existing(entry.hooks) : entry.hooks;
    await Promise.all(hookIds.map((hookId) => this.add(accountId, hookId, entry)));
    // Signal only once the jobs are in: a process letting go of a hook re-checks its queue after releasing
    // the lease, and a signal dropped because the lease was still held must find the job there. A crash
    // before this line leaves the inbox entry open, and recovery fans it out (and signals) again.
    await this.ready.signal(hookIds);
    await this.deps.inbox.done(accountId, entry.id);
    if (this.deps.onHeld) await this.notifyHeld(hookIds);
  }

  async close(): Promise<void> {
    await this.flows.close();
  }

  private async add(accountId: string, hookId: string, entry: InboxEntry): Promise<void> {
    const { event, acceptedAt } = entry;
    await this.flows.add({
      name: DELIVER_JOB,
      queueName: this.deps.keys.hookQueueName(hookId),
      data: { accountId, hookId, event, acceptedAt } satisfies DeliverJobData,
      opts: {
        jobId: event.id,
        deduplication: { id: event.id, ttl: DEDUPE_TTL_MS },
        attempts: 1,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    });
  }

  // One command per hook, sent together: each goes to its hook's shard (a pipeline may not span shards).
  private async existing(hookIds: readonly string[]): Promise<string[]> {
    const { redis, keys } = this.deps;
    const exists = await Promise.all(hookIds.map((id) => redis.exists(keys.hookQueueMeta(id))));
    return hookIds.filter((_, i) => exists[i] === 1);
  }

  private async notifyHeld(hookIds: readonly string[]): Promise<void> {
    const { redis, keys } = this.deps;
    const flags = await Promise.all(hookIds.map((id) => redis.hexists(keys.hookQueueMeta(id), 'paused')));
    const held = hookIds.filter((_, i) => flags[i] === 1);
    if (held.length > 0) await this.deps.onHeld?.(held);
  }
}
