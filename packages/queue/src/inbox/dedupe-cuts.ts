import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { confirmWrites, REPLICA_ACK_TIMEOUT_MS, type HookJobAdder, type RedisKeys } from '@hookline/redis';
import { DEDUPE_AFTER_DONE_MS } from '../jobs';

/**
 * How long closing waits for the cuts under way: one WAIT (at most REPLICA_ACK_TIMEOUT_MS) and one PEXPIRE
 * per hook, with room to spare. Past it (Redis unreachable), a cut not sent only keeps its keys their hour.
 */
export const DEDUPE_CUTS_CLOSE_MS = REPLICA_ACK_TIMEOUT_MS + 1000;

/**
 * Cuts each hook's deduplication key of an event to DEDUPE_AFTER_DONE_MS once its inbox entry is done, after
 * the publish has answered: nothing in the answer rests on it (a lost cut only keeps a key, ids only, its
 * hour), so the publish does not wait for its WAIT and its scripts. The cuts under way are kept so that
 * closing waits for them (bounded) before the caller lets its connection go, and a cut never rejects.
 */
export class DedupeCuts {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly jobs: HookJobAdder,
  ) {}

  /** Starts the cut of `jobId`'s keys in `hookIds`' queues; call only once the account's entry is done. */
  start(accountId: string, hookIds: readonly string[], jobId: string): void {
    if (hookIds.length === 0) return;
    const cut = this.cut(accountId, hookIds, jobId)
      .catch(() => undefined)
      .finally(() => this.pending.delete(cut));
    this.pending.add(cut);
  }

  /** Resolves once no cut is under way, or after `boundMs`; the ones started while it waits are waited for. */
  async close(boundMs = DEDUPE_CUTS_CLOSE_MS): Promise<void> {
    const bound = sleep(boundMs, 'bound' as const, { ref: false });
    while (this.pending.size > 0) {
      const settled = Promise.all(this.pending).then(() => 'settled' as const);
      if ((await Promise.race([settled, bound])) === 'bound') return;
    }
  }

  /**
   * Only once `done` is on the replicas (HOOKLINE_REDIS_REPLICA_ACKS): a failover of the account's shard that
   * lost it would bring the entry back, fanned out afresh once the keys may be gone; not acknowledged, the
   * keys keep their hour. The WAIT is on the connection `done` was sent on, so it covers it. The cut itself is
   * not acknowledged and its failure is ignored: the event is queued and the answer stands.
   */
  private async cut(accountId: string, hookIds: readonly string[], jobId: string): Promise<void> {
    await confirmWrites(this.redis, this.keys.accountInbox(accountId));
    await Promise.all(
      hookIds.map((hookId) =>
        this.jobs.shortenDeduplication(hookId, jobId, DEDUPE_AFTER_DONE_MS).catch(() => undefined),
      ),
    );
  }
}
