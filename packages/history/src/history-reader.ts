import {
  systemClock,
  toDeliveryRecord,
  type AttemptRecord,
  type Clock,
  type RecordedOutcome,
} from '@hookline/core';
import type { HistoryOutbox } from '@hookline/redis';
import { encodeCursor, type Cursor } from './cursor';
import { hookHealth, sentNothingCounts, type HookHealth, type SentNothingCounts } from './history-health';
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

/** The ids of an account's hooks: whose outboxes the account's log reads. */
export type AccountHooks = (accountId: string) => Promise<readonly string[]>;

/**
 * Outboxes read at once by the account's log. An account has few hooks (tens), and an outbox is empty unless
 * the writer is behind; an account with thousands still never has more than this many reads on Redis at once,
 * each of at most OUTBOX_READ_MAX records (the window a hook's log reads).
 */
const OUTBOXES_AT_ONCE = 50;

// WAITING_FIRST: a list reads the outboxes, then the database. The writer inserts a record before it trims it
// from its outbox, so a record is in one or the other at every moment, and read in this order it is found in at
// least one (twice is dropped); the other order misses one moved between the two reads.

/**
 * The history's reads. Every list and one attempt also look in the hooks' Redis outboxes: a record is
 * readable there from the moment its outcome is recorded, before the writer has moved it to the database.
 */
export class HistoryReader {
  constructor(
    private readonly client: SqlClient,
    private readonly outbox: Pick<HistoryOutbox, 'pending'>,
    private readonly accountHooks: AccountHooks,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The hook's health over the last `hours` whole hours (the current one included). */
  health(hookId: string, hours: number): Promise<HookHealth> {
    return hookHealth(this.client, hookId, hours, this.clock().getTime());
  }

  /** Of the `error` attempts `health` counts over the same hours, those that sent nothing, by why. */
  sentNothing(hookId: string, hours: number): Promise<SentNothingCounts> {
    return sentNothingCounts(this.client, hookId, hours, this.clock().getTime());
  }

  async listForHook(hookId: string, filter: HistoryFilter, page: PageRequest): Promise<Page<DeliveryLine>> {
    const where = new Where();
    where.add('hook_id = $', hookId);
    // The outbox before the database (WAITING_FIRST).
    const pending = (await this.pending(hookId)).filter((r) => matches(r, filter, page.cursor));
    const rows = await this.select(where, filter, page);
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
    // The outboxes before the database (WAITING_FIRST).
    const pending = (await this.pendingOfAccount(accountId)).filter(
      (r) => r.account_id === accountId && matches(r, filter, page.cursor),
    );
    const rows = await this.select(where, filter, page);
    return toPage([...pending, ...rows], page.limit);
  }

  /**
   * One attempt with its request and response; undefined unless it is this account's and this hook's. Without a
   * hook, of any hook of the account, a deleted one's included: its records stay in the account's history (the
   * few it had in its outbox reach the database within a second of its writer's round).
   */
  async attempt(
    accountId: string,
    hookId: string | undefined,
    attemptId: string,
  ): Promise<AttemptRecord | undefined> {
    // The outboxes before the database (WAITING_FIRST).
    const pending =
      hookId === undefined ? await this.pendingOfAccount(accountId) : await this.pending(hookId);
    const waiting = pending.find((r) => r.attempt_id === attemptId && r.account_id === accountId);
    if (waiting) return waiting;
    const where = new Where();
    where.add('attempt_id = $', attemptId);
    where.add('account_id = $', accountId);
    if (hookId !== undefined) where.add('hook_id = $', hookId);
    const rows = await this.client.query<AttemptRow>(
      `SELECT ${COLUMNS} FROM attempts WHERE ${where.sql()} LIMIT 1`,
      where.params,
    );
    return rows[0] && fromRow(rows[0]);
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

  /**
   * The records waiting in the outboxes of the account's hooks (a deleted hook's few are in the database within
   * a second, as its writer round ends).
   */
  private async pendingOfAccount(accountId: string): Promise<AttemptRecord[]> {
    const hookIds = await this.accountHooks(accountId);
    const records: AttemptRecord[] = [];
    for (let i = 0; i < hookIds.length; i += OUTBOXES_AT_ONCE)
      for (const some of await Promise.all(
        hookIds.slice(i, i + OUTBOXES_AT_ONCE).map((id) => this.pending(id)),
      ))
        records.push(...some);
    return records;
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
