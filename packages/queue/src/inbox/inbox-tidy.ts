import { setTimeout as sleep } from 'node:timers/promises';
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
 * are queued and signalled. Both are gathered over TIDY_WINDOW_MS; closing sends what is due and waits
 * (bounded) for it, and nothing here rejects.
 */
export class InboxTidy {
  private due: DoneFanOut[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly inbox: AccountInbox,
    private readonly jobs: HookJobAdder,
    private readonly windowMs = TIDY_WINDOW_MS,
  ) {}

  done(fanOut: DoneFanOut): void {
    this.due.push(fanOut);
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /**
   * Sends what is due now and resolves once nothing is under way, or after `boundMs`: before the caller lets
   * its connection go, and where the deletions must be seen at once (recovery, before it looks at the inbox).
   */
  async close(boundMs = TIDY_CLOSE_MS): Promise<void> {
    this.flush();
    const bound = sleep(boundMs, 'bound' as const, { ref: false });
    while (this.pending.size > 0) {
      const settled = Promise.all(this.pending).then(() => 'settled' as const);
      if ((await Promise.race([settled, bound])) === 'bound') return;
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.due;
    if (batch.length === 0) return;
    this.due = [];
    const run = this.tidy(batch)
      .catch(() => undefined)
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
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
