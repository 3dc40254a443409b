import { newAuditId, systemClock, type AuditEntry, type AuditInput, type Clock } from '@hookline/core';
import type { AuditOutbox } from '@hookline/redis';
import type { AuditCursor, AuditPage, AuditReader } from './audit-log';

/**
 * What the front doors (API, website, Bull Board) use: `record` right after a change succeeded, `list` for
 * the audit API and the Activity page. Each entry is appended to the Redis outbox (the monitor moves it to
 * PostgreSQL) and handed to `onRecorded`, which writes the one JSON log line (`"audit": true`).
 */
export class AuditTrail {
  constructor(
    private readonly outbox: Pick<AuditOutbox, 'append'>,
    private readonly reader: Pick<AuditReader, 'list' | 'waiting'>,
    private readonly onRecorded: (entry: AuditEntry) => void,
    private readonly clock: Clock = systemClock,
  ) {}

  async record(input: AuditInput): Promise<AuditEntry> {
    const now = this.clock().getTime();
    const entry: AuditEntry = { id: newAuditId(now), at: new Date(now).toISOString(), ...input };
    await this.append(entry);
    return entry;
  }

  /**
   * An entry made earlier, with its id and time (an erasure's `erasure.done`, kept with the erasure until
   * written): written again after a crash, it is still one entry, as the log keeps one per id.
   */
  async append(entry: AuditEntry): Promise<void> {
    await this.outbox.append(entry);
    this.onRecorded(entry);
  }

  list(accountId: string, page: { limit: number; cursor?: AuditCursor }): Promise<AuditPage> {
    return this.reader.list(accountId, page);
  }

  /** The entries not yet in the database (see AuditReader.waiting): readable while it is down. */
  waiting(accountId: string, page: { limit: number; cursor?: AuditCursor }): Promise<AuditEntry[]> {
    return this.reader.waiting(accountId, page);
  }
}
