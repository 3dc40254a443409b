import { Lru, TurnBatch } from '@hookline/core';
import type { AccountInbox } from './account-inbox';

// Accounts whose recent mark this process remembers; forgetting one only costs a mark on its next publish.
const REMEMBERED_MARKS = 10_000;

/**
 * Marks accounts as having inbox entries (the index recovery walks), skipping the mark when this process's
 * own mark is younger than a quarter of the grace period, which saves a round trip on most publishes.
 *
 * Skipping is safe because recovery only drops an account from the index (FORGET) once its score, the Redis
 * time of its latest mark, is older than the grace period on Redis's clock, and only touches inbox entries
 * older than the grace period by their own stream ids. A mark sent less than grace/4 ago ran on Redis less
 * than grace/4 ago (after it was sent), so recovery cannot drop the account for at least another 3/4 of the
 * grace period: the entry written next is missed only if recovery stalls that long between finding the inbox
 * empty and its FORGET (a fresh mark allowed the whole grace period). Ages count from when the mark was sent,
 * not answered (a late answer says nothing of when Redis ran it), on the monotonic clock, so clock skew
 * between this machine and Redis does not matter.
 */
export class AccountMarks {
  /** accountId -> performance.now() when this process sent its latest mark for the account that succeeded. */
  private readonly sent = new Lru<string, number>(REMEMBERED_MARKS);
  /** The marks asked for in one turn go out in one script (a quiet account needs one on every publish). */
  private readonly marking: TurnBatch<string, void>;
  private readonly withAccept: boolean;

  /**
   * `withAccept` (one Redis by default, see AccountInbox.oneNode): a mark that is due rides in the
   * accept's own script instead of a script of its own before it.
   */
  constructor(
    inbox: AccountInbox,
    private readonly graceMs: number,
    options: { readonly withAccept?: boolean } = {},
  ) {
    this.withAccept = options.withAccept ?? inbox.oneNode;
    this.marking = new TurnBatch(async (accountIds) => {
      await inbox.markActive([...new Set(accountIds)]);
      return [];
    });
  }

  /**
   * Called before an entry is written for the account: an entry written after it is found. Resolves once the
   * account is marked (or was, recently enough), or, with marks riding in the accept, with the mark the accept
   * must carry (`markAccount`); its `done()` once the accept wrote it counts it as sent. The accept writes it
   * only with an inbox entry: a publish whose adds the accept made (one Redis) leaves nothing to recover, so
   * a quiet account that publishes that way is never visited by recovery, and its next publish asks again.
   */
  async ensure(accountId: string): Promise<PendingMark | undefined> {
    const sentAt = performance.now();
    const lastSent = this.sent.get(accountId);
    if (lastSent !== undefined && sentAt - lastSent < this.graceMs / 4) return undefined;
    // Counted once the accept that carries it has run: an accept that failed may not have marked anything.
    if (this.withAccept) return { done: () => this.sent.set(accountId, sentAt) };
    await this.marking.add(accountId);
    this.sent.set(accountId, sentAt);
    return undefined;
  }
}

/** A mark the accept's script writes (see AccountMarks.ensure). */
export interface PendingMark {
  done(): void;
}
