import {
  AUDIT_ID,
  decodePagePosition,
  encodePagePosition,
  type AuditEntry,
  type PagePosition,
} from '@hookline/core';
import type { AuditOutbox } from '@hookline/redis';
import { dayOf, Partitions } from './partitions';
import type { SqlClient } from './sql-client';

// The audit log's database side: the writer the monitor's audit drain uses, and the reads behind
// GET /v1/accounts/{acct}/audit and the website's Activity page. Entries are read like the delivery history:
// newest first, in pages, with an opaque cursor, and entries still waiting in the Redis outbox are shown too.

const INSERT = `
INSERT INTO audit_entries (id, at, account_id, action, hook_id, actor, address, detail)
SELECT * FROM json_to_recordset($1::json) AS r(id text, at timestamptz, account_id text, action text,
  hook_id text, actor jsonb, address text, detail jsonb)
ON CONFLICT DO NOTHING`;

const COLUMNS = `id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, account_id, action,
  hook_id, actor, address, detail`;

interface AuditRow {
  id: string;
  at: string;
  account_id: string;
  action: AuditEntry['action'];
  hook_id: string | null;
  actor: AuditEntry['actor'];
  address: string | null;
  detail: AuditEntry['detail'];
}

const fromRow = (r: AuditRow): AuditEntry => ({
  id: r.id,
  at: r.at,
  account_id: r.account_id,
  action: r.action,
  ...(r.hook_id ? { hook_id: r.hook_id } : {}),
  actor: r.actor,
  ...(r.address ? { address: r.address } : {}),
  detail: r.detail,
});

/** Where a page of the audit log ended: the last entry's time and id. */
export type AuditCursor = PagePosition;

/** Opaque to clients (core's page-cursor.ts): the entry's time and id. */
export function encodeAuditCursor(entry: Pick<AuditEntry, 'at' | 'id'>): string {
  return encodePagePosition(entry.at, entry.id);
}

/** Undefined for anything `encodeAuditCursor` did not make. */
export function decodeAuditCursor(text: string): AuditCursor | undefined {
  return decodePagePosition(text, AUDIT_ID);
}

export interface AuditPage {
  readonly data: AuditEntry[];
  readonly next_cursor?: string;
}

const newestFirst = (a: AuditEntry, b: AuditEntry) =>
  Date.parse(b.at) - Date.parse(a.at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (e: AuditEntry, c: AuditCursor) => {
  const at = Date.parse(e.at);
  return at < c.at.getTime() || (at === c.at.getTime() && e.id < c.id);
};

/** Writes entries idempotently, creating the day partitions they need. */
export class AuditWriter {
  readonly partitions: Partitions;

  constructor(private readonly client: SqlClient) {
    this.partitions = new Partitions(client, 'audit_entries');
  }

  async write(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.partitions.ensure(entries.map((e) => dayOf(Date.parse(e.at))));
    await this.client.query(INSERT, [JSON.stringify(entries)]);
  }
}

/** An account's audit entries, newest first: the database's and those still in the outbox. */
export class AuditReader {
  constructor(
    private readonly client: SqlClient,
    private readonly outbox: Pick<AuditOutbox, 'pending'>,
  ) {}

  async list(accountId: string, page: { limit: number; cursor?: AuditCursor }): Promise<AuditPage> {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (page.cursor) {
      params.push(page.cursor.at, page.cursor.id);
      where += ' AND (at, id) < ($2, $3)';
    }
    const rows = await this.client.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_entries WHERE ${where} ORDER BY at DESC, id DESC LIMIT ${page.limit + 1}`,
      params,
    );
    const pending = (await this.pending()).filter(
      (e) => e.account_id === accountId && (!page.cursor || before(e, page.cursor)),
    );
    const seen = new Set<string>();
    const all = [...pending, ...rows.map(fromRow)].filter((e) => !seen.has(e.id) && seen.add(e.id));
    all.sort(newestFirst);
    const data = all.slice(0, page.limit);
    const last = data.at(-1);
    return { data, ...(all.length > page.limit && last ? { next_cursor: encodeAuditCursor(last) } : {}) };
  }

  /**
   * The account's entries still waiting in the outbox, newest first, at most `limit`: what can be shown while
   * the database cannot be read (the Activity page says the rest cannot be read right now).
   */
  async waiting(accountId: string, page: { limit: number; cursor?: AuditCursor }): Promise<AuditEntry[]> {
    const pending = (await this.pending()).filter(
      (e) => e.account_id === accountId && (!page.cursor || before(e, page.cursor)),
    );
    return pending.sort(newestFirst).slice(0, page.limit);
  }

  private async pending(): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    for (const text of await this.outbox.pending()) {
      const entry = parseAuditEntry(text);
      if (entry) entries.push(entry);
    }
    return entries;
  }
}

/** An outbox entry, or undefined when it is not one (the writer reports and drops those). */
export function parseAuditEntry(text: string): AuditEntry | undefined {
  try {
    const entry = JSON.parse(text) as Partial<AuditEntry> | null;
    if (!entry || typeof entry.id !== 'string' || !AUDIT_ID.test(entry.id)) return undefined;
    if (typeof entry.at !== 'string' || Number.isNaN(Date.parse(entry.at))) return undefined;
    if (typeof entry.account_id !== 'string' || typeof entry.action !== 'string') return undefined;
    return entry as AuditEntry;
  } catch {
    return undefined;
  }
}
