import { WindowBatch } from '@hookline/core';
import type { HookJobAdder } from '@hookline/redis';
import { DEDUPE_AFTER_DONE_MS } from '../jobs';
import type { AccountInbox } from './account-inbox';

/**
 * How long done entries gather before they are deleted together: a steady stream of publishes then costs one
 * deletion (and one round of cuts) per window instead of one per event. An entry not yet deleted is only an
 * entry a crash would leave to recovery, which finds its jobs already queued (the deduplication keys keep
 * their hour until the cut).
 */
export const TIDY_WINDOW_MS = 50;

/** How long closing waits for the tidying under way; past it, entries are left to recovery, keys keep their hour. */
export const TIDY_CLOSE_MS = 2000;

interface DoneFanOut {
  readonly accountId: string;
  readonly entryId: string;
  readonly hookIds: readonly string[];
  readonly jobId: string;
}

/**
 * What follows a fan-out's answer: its inbox entry deleted, then (once the deletion is on the replicas) each
 * hook's deduplication key of the event cut to DEDUPE_AFTER_DONE_MS. Neither can change the answer: the jobs
 * are queued and signalled. Both are gathered over TIDY_WINDOW_MS (WindowBatch); flushing sends what is due
 * and waits (bounded) for it, and nothing here rejects.
 */
export class InboxTidy {
  private readonly batch: WindowBatch<DoneFanOut>;

  constructor(
    private readonly inbox: AccountInbox,
    private readonly jobs: HookJobAdder,
    windowMs = TIDY_WINDOW_MS,
  ) {
    this.batch = new WindowBatch((fanOuts) => this.tidy(fanOuts), windowMs);
  }

  done(fanOut: DoneFanOut): void {
    this.batch.add(fanOut);
  }

  /**
   * Sends what is due now and resolves once nothing is under way, or after `boundMs`: before the caller lets
   * its connection go, and where the deletions must be seen at once (recovery, before it looks at the inbox).
   */
  flush(boundMs = TIDY_CLOSE_MS): Promise<void> {
    return this.batch.flush(boundMs);
  }

  // Cut only what is deleted on the replicas: a failover that lost the deletion would bring the entry back,
  // fanned out afresh once the keys may be gone. A failed or unacknowledged deletion leaves the entry to
  // recovery and the keys their hour.
  private async tidy(batch: readonly DoneFanOut[]): Promise<void> {
    const deleted = await this.inbox.deleteDone(batch);
    await Promise.all(
      batch.flatMap((fanOut, i) =>
        deleted[i]
          ? fanOut.hookIds.map((hookId) =>
              this.jobs
                .shortenDeduplication(hookId, fanOut.jobId, DEDUPE_AFTER_DONE_MS)
                .catch(() => undefined),
            )
          : [],
      ),
    );
  }
}
