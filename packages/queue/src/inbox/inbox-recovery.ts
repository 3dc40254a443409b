import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import type { LogSink, Tracing } from '@hookline/core';
import type { AccountInbox } from './account-inbox';
import type { InboxEntry } from './inbox-entry';
import { createInboxFanOut, type FanOut } from './fan-out';

export interface InboxRecoveryDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  /** Entries younger than this belong to a publish still in progress and are left to it. */
  readonly graceMs: number;
  readonly onHeld?: (hookIds: readonly string[]) => Promise<unknown>;
  readonly log?: LogSink;
  /** Spans for the fan-outs it completes, in the trace of the publish that accepted them. */
  readonly tracing?: Tracing;
}

/** Default grace: far longer than a fan-out takes, short enough that a crash delays events by seconds. */
export const INBOX_GRACE_MS = 10_000;

const ACCOUNTS_PER_RUN = 100;
const ENTRIES_PER_READ = 100;

/**
 * Completes fan-outs that a process abandoned (it died between accepting an event and putting it into every
 * hook's queue). The monitor runs it every few seconds; publishes do the same for their own account. An
 * entry is fanned out again whole: the hooks that already have the event ignore it.
 */
export class InboxRecovery {
  private readonly inbox: AccountInbox;
  private readonly fanOut: FanOut;

  constructor(private readonly deps: InboxRecoveryDeps) {
    ({ inbox: this.inbox, fanOut: this.fanOut } = createInboxFanOut({
      redis: deps.redis,
      keys: deps.keys,
      ...(deps.onHeld ? { onHeld: deps.onHeld } : {}),
      ...(deps.tracing ? { tracing: deps.tracing } : {}),
    }));
  }

  /** One pass over the accounts that went quiet; returns how many events it put into hook queues. */
  async run(): Promise<number> {
    const { graceMs, log } = this.deps;
    let recovered = 0;
    for (const accountId of await this.inbox.quietAccounts(graceMs, ACCOUNTS_PER_RUN)) {
      try {
        const first = await this.inbox.visit(accountId, graceMs, ENTRIES_PER_READ);
        // Nothing left behind, and (one Redis) forgotten in the same script if its inbox is empty: the usual
        // visit of an account that simply went quiet.
        if (first.looked) continue;
        recovered += await this.recoverAccount(accountId, first.entries);
        // The fan-outs' deletions follow their answers; sent now, so that the inbox is seen as it is.
        await this.fanOut.flush();
        if (await this.inbox.isEmpty(accountId)) await this.inbox.forget(accountId, graceMs);
      } catch (error) {
        // One account's trouble (a corrupt queue key) must not hold up the others; it is tried again next run.
        log?.warn({ accountId, err: error }, 'completing an interrupted fan-out failed; will retry');
      }
    }
    return recovered;
  }

  async close(): Promise<void> {
    await this.fanOut.close();
  }

  // In acceptance order, so that a hook gets the recovered events in the order they were accepted.
  private async recoverAccount(accountId: string, first: InboxEntry[]): Promise<number> {
    let count = 0;
    let entries = first;
    for (;;) {
      for (const entry of entries) {
        await this.fanOut.deliver(accountId, entry, true);
        this.deps.log?.info(
          { accountId, eventId: entry.event.id, hooks: entry.hooks.length },
          'completed an interrupted fan-out',
        );
        count += 1;
      }
      if (entries.length < ENTRIES_PER_READ) return count;
      entries = await this.inbox.olderThan(accountId, this.deps.graceMs, ENTRIES_PER_READ);
    }
  }
}
