import { setTimeout as sleep } from 'node:timers/promises';
import type { HookJobAdder } from '@hookline/redis';
import { DEDUPE_AFTER_DONE_MS } from '../jobs';

/**
 * How long closing waits for the cuts under way: one PEXPIRE per hook, with room to spare. Past it (Redis
 * unreachable), a cut not sent only keeps its keys their hour.
 */
export const DEDUPE_CUTS_CLOSE_MS = 2000;

/**
 * Cuts each hook's deduplication key of an event to DEDUPE_AFTER_DONE_MS once its inbox entry is done, after
 * the publish has answered: nothing in the answer rests on it (a lost cut only keeps a key, ids only, its
 * hour), so the publish does not wait for its WAIT and its scripts. The cuts under way are kept so that
 * closing waits for them (bounded) before the caller lets its connection go, and a cut never rejects.
 */
export class DedupeCuts {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly jobs: HookJobAdder) {}

  /**
   * Starts the cut of `jobId`'s keys in `hookIds`' queues; call only once the account's entry is done, and
   * (with HOOKLINE_REDIS_REPLICA_ACKS) its deletion acknowledged by the replicas: see FanOut.
   */
  start(hookIds: readonly string[], jobId: string): void {
    if (hookIds.length === 0) return;
    const cut = this.cut(hookIds, jobId)
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

  /** The cut itself is not acknowledged and its failure is ignored: the event is queued and the answer stands. */
  private async cut(hookIds: readonly string[], jobId: string): Promise<void> {
    await Promise.all(
      hookIds.map((hookId) =>
        this.jobs.shortenDeduplication(hookId, jobId, DEDUPE_AFTER_DONE_MS).catch(() => undefined),
      ),
    );
  }
}
