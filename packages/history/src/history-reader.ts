import {
  systemClock,
  toDeliveryRecord,
  type AttemptRecord,
  type Clock,
  type RecordedOutcome,
} from '@hookline/core';
import type { HistoryOutbox } from '@hookline/redis';
import { encodeCursor, type Cursor } from './cursor';
import { hookHealth, type HookHealth } from './history-health';
import { COLUMNS, fromRow, type AttemptRow } from './rows';
import type { SqlClient } from './sql-client';

export interface HistoryFilter {
  readonly outcome?: RecordedOutcome;
  readonly callId?: string;
  readonly eventId?: string;
  /** Attempted at or after. */
  readonly since?: Date;
  /** Attempted before. */
  readonly until?: Date;
}

export interface PageRequest {
  readonly limit: number;
  readonly cursor?: Cursor;
}

export type DeliveryLine = ReturnType<typeof toDeliveryRecord>;

export interface Page<T> {
  readonly data: T[];
  /** Present when there may be more: pass it as `cursor` for the next page. */
  readonly next_cursor?: string;
}

/** Newest first: the order of every page, and of the cursor. */
const newestFirst = (a: AttemptRecord, b: AttemptRecord) =>
  Date.parse(b.attempted_at) - Date.parse(a.attempted_at) ||
  (a.attempt_id < b.attempt_id ? 1 : a.attempt_id > b.attempt_id ? -1 : 0);

/**
 * The history's reads. A hook's log and one attempt also look in the hook's Redis outbox: a record is
 * readable there from the moment its outcome is recorded, before the writer has moved it to the database.
 */
export class HistoryReader {
  constructor(
    private readonly client: SqlClient,
    private readonly outbox: Pick<HistoryOutbox, 'pending'>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The hook's health over the last `hours` whole hours (the current one included). */
  health(hookId: string, hours: number): Promise<HookHealth> {
    return hookHealth(this.client, hookId, hours, this.clock().getTime());
  }

  async listForHook(hookId: string, filter: HistoryFilter, page: PageRequest): Promise<Page<DeliveryLine>> {
    const where = new Where();
    where.add('hook_id = $', hookId);
    const rows = await this.select(where, filter, page);
    const pending = (await this.pending(hookId)).filter((r) => matches(r, filter, page.cursor));
    return toPage([...pending, ...rows], page.limit);
  }

  /**
   * Across every hook of the account, newest first: the account's whole log without a filter; with a call id,
   * the customer's "did call X's event reach my endpoints?".
   */
  async listForAccount(
    accountId: string,
    filter: HistoryFilter,
    page: PageRequest,
  ): Promise<Page<DeliveryLine>> {
    const where = new Where();
    where.add('account_id = $', accountId);
    return toPage(await this.select(where, filter, page), page.limit);
  }

  /** One attempt with its request and response; undefined unless it is this account's and this hook's. */
  async attempt(accountId: string, hookId: string, attemptId: string): Promise<AttemptRecord | undefined> {
    const rows = await this.client.query<AttemptRow>(
      `SELECT ${COLUMNS} FROM attempts WHERE attempt_id = $1 AND account_id = $2 AND hook_id = $3 LIMIT 1`,
      [attemptId, accountId, hookId],
    );
    if (rows[0]) return fromRow(rows[0]);
    return (await this.pending(hookId)).find((r) => r.attempt_id === attemptId && r.account_id === accountId);
  }

  private async select(where: Where, filter: HistoryFilter, page: PageRequest): Promise<AttemptRecord[]> {
    if (filter.outcome) where.add('outcome = $', filter.outcome);
    if (filter.callId !== undefined) where.add('call_id = $', filter.callId);
    if (filter.eventId !== undefined) where.add('event_id = $', filter.eventId);
    if (filter.since) where.add('attempted_at >= $', filter.since);
    if (filter.until) where.add('attempted_at < $', filter.until);
    if (page.cursor) where.add('(attempted_at, attempt_id) < ($, $)', page.cursor.at, page.cursor.attemptId);
    const rows = await this.client.query<AttemptRow>(
      `SELECT ${COLUMNS} FROM attempts WHERE ${where.sql()} ORDER BY attempted_at DESC, attempt_id DESC LIMIT ${page.limit + 1}`,
      where.params,
    );
    return rows.map(fromRow);
  }

  private async pending(hookId: string): Promise<AttemptRecord[]> {
    const records: AttemptRecord[] = [];
    for (const entry of await this.outbox.pending(hookId)) {
      try {
        records.push(JSON.parse(entry) as AttemptRecord);
      } catch {
        // The writer reports and drops what does not parse; a reader just does not show it.
      }
    }
    return records;
  }
}

function matches(r: AttemptRecord, f: HistoryFilter, cursor: Cursor | undefined): boolean {
  const at = Date.parse(r.attempted_at);
  if (f.outcome && r.outcome !== f.outcome) return false;
  if (f.callId !== undefined && r.call_id !== f.callId) return false;
  if (f.eventId !== undefined && r.event_id !== f.eventId) return false;
  if (f.since && at < f.since.getTime()) return false;
  if (f.until && at >= f.until.getTime()) return false;
  if (cursor) {
    const c = cursor.at.getTime();
    if (at > c || (at === c && r.attempt_id >= cursor.attemptId)) return false;
  }
  return true;
}

/** Merges, drops what is both pending and written, sorts newest first and cuts the page. */
function toPage(records: readonly AttemptRecord[], limit: number): Page<DeliveryLine> {
  const seen = new Set<string>();
  const unique = records.filter((r) => !seen.has(r.attempt_id) && seen.add(r.attempt_id));
  unique.sort(newestFirst);
  const data = unique.slice(0, limit);
  const last = data.at(-1);
  return {
    data: data.map(toDeliveryRecord),
    ...(unique.length > limit && last
      ? { next_cursor: encodeCursor(last.attempted_at, last.attempt_id) }
      : {}),
  };
}

/** A WHERE clause built from conditions, each `$` numbered in order as its parameter is added. */
class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  add(condition: string, ...values: unknown[]): void {
    let i = 0;
    this.parts.push(
      condition.replace(/\$/g, () => {
        this.params.push(values[i++]);
        return `$${this.params.length}`;
      }),
    );
  }

  sql(): string {
    return this.parts.join(' AND ');
  }
}
