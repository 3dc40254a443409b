import type { HistoryOutbox } from '@hookline/redis';
import { decodeCursor } from '../src/cursor';
import { HistoryReader } from '../src/history-reader';
import { hookHealth } from '../src/history-health';
import { HistoryWriter } from '../src/history-writer';
import { eraseHistory } from '../src/history-erasure';
import { migrate } from '../src/schema';
import { Partitions } from '../src/partitions';
import type { SqlClient } from '../src/sql-client';
import { attemptRecord } from './records';

// The same behaviour, asserted on the PostgreSQL server and on PGlite: both run this one schema and SQL.
const HOUR = 3600_000;
const noOutbox = { pending: async () => [] } as unknown as HistoryOutbox;
const noHooks = async () => [];

export function historyContract(open: () => Promise<{ client: SqlClient; schema: string }>) {
  let client: SqlClient;
  let schema: string;
  beforeEach(async () => {
    ({ client, schema } = await open());
    await migrate(client, schema);
  });

  it('migrates idempotently, also with several processes at once', async () => {
    await Promise.all([migrate(client, schema), migrate(client, schema), migrate(client, schema)]);
    const versions = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY 1',
    );
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps every field of a record exactly, and a record written twice once', async () => {
    const record = attemptRecord({
      event_fields: { EventType: 'call_created', call_id: 'c-1', rate: '0.0100', from_cnam: 'Jonas 1' },
      outcome: 'failed',
      status_code: 503,
      error: 'Service Unavailable',
      response_excerpt: 'down\u0000for maintenance \u00e9',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: '00f067aa0ba902b7',
      response_headers: { 'retry-after': '120', 'content-type': 'text/plain', 'x-zeta': 'last\u0000kept' },
      response_headers_dropped: 3,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9/hook?x=1',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Zeta: 'last-but-kept-in-order',
          Authorization: 'Basic ••••',
        },
        body: 'EventType=call_created&from_cnam=Jonas+1&date=2016-03-01T08%3A31%3A55.0000000',
      },
    });
    const writer = new HistoryWriter(client);
    await writer.write([record]);
    await writer.write([record]);
    const reader = new HistoryReader(client, noOutbox, noHooks);
    const got = await reader.attempt(record.account_id, record.hook_id, record.attempt_id);
    // NUL cannot be stored in PostgreSQL text: it is the one character replaced.
    expect(got).toEqual({
      ...record,
      response_excerpt: 'down\uFFFDfor maintenance \u00e9',
      response_headers: { 'retry-after': '120', 'content-type': 'text/plain', 'x-zeta': 'last\uFFFDkept' },
    });
    expect(Object.keys(got!.request!.headers)).toEqual(['Content-Type', 'Zeta', 'Authorization']);
    expect(Object.keys(got!.response_headers!)).toEqual(['retry-after', 'content-type', 'x-zeta']);
    const [row] = await client.query<{ n: number }>('SELECT count(*) AS n FROM attempts');
    expect(row?.n).toBe(1);
  });

  it('lists a hook newest first with filters and cursor pagination', async () => {
    const base = Date.parse('2026-11-20T10:00:00.000Z');
    const records = Array.from({ length: 7 }, (_, i) =>
      attemptRecord({
        attempted_at: new Date(base + i * 1000).toISOString(),
        outcome: i % 2 === 0 ? 'delivered' : 'failed',
        call_id: i === 3 ? 'call-3' : 'call-x',
      }),
    );
    const other = attemptRecord({
      hook_id: 'hk_00000000000000000002',
      attempted_at: new Date(base).toISOString(),
    });
    await new HistoryWriter(client).write([...records, other]);
    const reader = new HistoryReader(client, noOutbox, noHooks);
    const hook = records[0]!.hook_id;

    const first = await reader.listForHook(hook, {}, { limit: 3 });
    expect(first.data.map((r) => r.attempt_id)).toEqual(
      [records[6], records[5], records[4]].map((r) => r!.attempt_id),
    );
    const second = await reader.listForHook(hook, {}, { limit: 3, cursor: decodeCursor(first.next_cursor!) });
    const third = await reader.listForHook(hook, {}, { limit: 3, cursor: decodeCursor(second.next_cursor!) });
    expect([...first.data, ...second.data, ...third.data].map((r) => r.attempt_id)).toEqual(
      [...records].reverse().map((r) => r.attempt_id),
    );
    expect(third.next_cursor).toBeUndefined();

    const failed = await reader.listForHook(hook, { outcome: 'failed' }, { limit: 10 });
    expect(failed.data.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed']);
    const byCall = await reader.listForHook(hook, { callId: 'call-3' }, { limit: 10 });
    expect(byCall.data.map((r) => r.attempt_id)).toEqual([records[3]!.attempt_id]);
    const byEvent = await reader.listForHook(hook, { eventId: records[2]!.event_id }, { limit: 10 });
    expect(byEvent.data.map((r) => r.attempt_id)).toEqual([records[2]!.attempt_id]);
    const window = await reader.listForHook(
      hook,
      { since: new Date(base + 2000), until: new Date(base + 4000) },
      { limit: 10 },
    );
    expect(window.data.map((r) => r.attempt_id)).toEqual([records[3]!.attempt_id, records[2]!.attempt_id]);
  });

  it('searches one account by call id across its hooks, never another account', async () => {
    const mine = [
      attemptRecord({ call_id: 'c-42', hook_id: 'hk_00000000000000000001' }),
      attemptRecord({ call_id: 'c-42', hook_id: 'hk_00000000000000000002' }),
    ];
    const theirs = attemptRecord({ call_id: 'c-42', account_id: 'acct_00000000000000000009' });
    await new HistoryWriter(client).write([...mine, theirs]);
    const reader = new HistoryReader(client, noOutbox, noHooks);
    const found = await reader.listForAccount(mine[0]!.account_id, { callId: 'c-42' }, { limit: 50 });
    expect(found.data.map((r) => r.attempt_id).sort()).toEqual(mine.map((r) => r.attempt_id).sort());
    expect(await reader.attempt(mine[0]!.account_id, theirs.hook_id, theirs.attempt_id)).toBeUndefined();
  });

  it("finds one attempt of any hook of the account without the hook (a deleted one's too), never another account's", async () => {
    const written = attemptRecord({ hook_id: 'hk_00000000000000000007' });
    const pending = attemptRecord({ hook_id: 'hk_00000000000000000002' });
    const theirs = attemptRecord({ account_id: 'acct_00000000000000000009' });
    await new HistoryWriter(client).write([written, theirs]);
    // Hook 7 is no longer among the account's hooks (deleted); hook 2's record waits in its outbox.
    const outbox = {
      pending: async (hookId: string) => (hookId === pending.hook_id ? [JSON.stringify(pending)] : []),
    } as unknown as HistoryOutbox;
    const reader = new HistoryReader(client, outbox, async () => [
      'hk_00000000000000000001',
      pending.hook_id,
    ]);
    const account = written.account_id;
    expect(await reader.attempt(account, undefined, written.attempt_id)).toEqual(written);
    expect(await reader.attempt(account, undefined, pending.attempt_id)).toEqual(pending);
    expect(await reader.attempt(account, undefined, theirs.attempt_id)).toBeUndefined();
    expect(await reader.attempt(theirs.account_id, undefined, theirs.attempt_id)).toEqual(theirs);
    // With a hook, only that hook's.
    expect(await reader.attempt(account, 'hk_00000000000000000001', written.attempt_id)).toBeUndefined();
  });

  it("pages an account's whole log from an index, newest day first, never sorting the account's records", async () => {
    const day = 24 * HOUR;
    const newest = Date.parse('2026-11-24T12:00:00.000Z');
    const records = [0, 1, 2].flatMap((d) =>
      ['hk_00000000000000000001', 'hk_00000000000000000002'].map((hook_id, i) =>
        attemptRecord({ hook_id, attempted_at: new Date(newest - d * day - i * 1000).toISOString() }),
      ),
    );
    const theirs = attemptRecord({ account_id: 'acct_00000000000000000009' });
    await new HistoryWriter(client).write([...records, theirs]);
    const plans: PlanNode[] = [];
    const reader = new HistoryReader(explaining(client, plans), noOutbox, noHooks);
    const account = records[0]!.account_id;

    const first = await reader.listForAccount(account, {}, { limit: 4 });
    const rest = await reader.listForAccount(
      account,
      {},
      { limit: 4, cursor: decodeCursor(first.next_cursor!) },
    );
    expect([...first.data, ...rest.data].map((r) => r.attempt_id)).toEqual(records.map((r) => r.attempt_id));
    await reader.listForAccount(
      account,
      { since: new Date(newest - day), until: new Date(newest) },
      { limit: 4 },
    );
    // A few rows read faster whole, so the planner is told to avoid what a large table makes slow: were there
    // no index giving the account's order, each plan would still sort.
    expect(plans).toHaveLength(3);
    for (const plan of plans) {
      expect(nodeTypes(plan)).not.toContain('Sort');
      expect(nodeTypes(plan)).not.toContain('Seq Scan');
    }
  });

  it('sums up a hook’s health by hour', async () => {
    const now = Date.parse('2026-11-24T12:30:00.000Z');
    const at = (ms: number) => new Date(ms).toISOString();
    await new HistoryWriter(client).write([
      attemptRecord({ attempted_at: at(now - 10 * 60_000), duration_ms: 10 }),
      attemptRecord({ attempted_at: at(now - 20 * 60_000), duration_ms: 30 }),
      attemptRecord({
        attempted_at: at(now - 2 * HOUR),
        outcome: 'failed',
        status_code: 500,
        duration_ms: 20,
        error: 'HTTP 500',
      }),
      attemptRecord({
        attempted_at: at(now - 3 * HOUR),
        outcome: 'timed_out',
        status_code: undefined,
        duration_ms: 15000,
        error: 'no response',
      }),
      attemptRecord({
        attempted_at: at(now - 3 * HOUR),
        outcome: 'error',
        status_code: undefined,
        duration_ms: 1,
        error: 'ECONNREFUSED 203.0.113.7:443',
      }),
      ...(['discarded', 'discarded', 'expired', 'erased'] as const).map((outcome) =>
        attemptRecord({ attempted_at: at(now - 3 * HOUR), outcome, status_code: undefined, duration_ms: 0 }),
      ),
      attemptRecord({ attempted_at: at(now - 30 * HOUR), duration_ms: 5 }),
    ]);
    const health = await hookHealth(client, 'hk_00000000000000000001', 24, now);
    // Attempts are the tries made; events dropped unsent are counted apart in dropped (and in by_outcome). Latency
    // is of answers and timeouts (10, 20, 30 and 15000 ms), not of a refused connection's 1 ms.
    expect(health).toMatchObject({ attempts: 5, delivered: 2, success_rate: 0.4, p50_ms: 20, p99_ms: 15000 });
    expect(health.by_outcome).toEqual({
      delivered: 2,
      failed: 1,
      timed_out: 1,
      error: 1,
      blocked: 0,
      unknown: 0,
      expired: 1,
      discarded: 2,
      erased: 1,
    });
    expect(health.dropped).toEqual({ expired: 1, discarded: 2, erased: 1 });
    expect(health.last_error).toMatchObject({ outcome: 'failed', status_code: 500, error: 'HTTP 500' });
    expect(health.series).toHaveLength(24);
    expect(health.series.at(-1)).toEqual({
      hour: '2026-11-24T12:00:00.000Z',
      delivered: 2,
      not_delivered: 0,
    });
    expect(health.series.at(-4)).toEqual({
      hour: '2026-11-24T09:00:00.000Z',
      delivered: 0,
      not_delivered: 2,
    });
  });

  it("an erasure empties a record's response headers with the rest of its content", async () => {
    const hit = attemptRecord({
      event_fields: { EventType: 'call_created', call_id: 'erase-me', from: '+3312' },
      call_id: 'erase-me',
      response_headers: { 'x-caller': '+3312' },
      response_headers_dropped: 2,
    });
    const kept = attemptRecord({ response_headers: { 'x-caller': 'someone else' } });
    await new HistoryWriter(client).write([hit, kept]);
    const at = new Date('2026-11-25T12:00:00.000Z');
    await expect(
      eraseHistory(client, hit.account_id, { kind: 'call_id', value: 'erase-me' }, at),
    ).resolves.toEqual([hit.event_id]);
    const reader = new HistoryReader(client, noOutbox, noHooks);
    const erased = await reader.attempt(hit.account_id, hit.hook_id, hit.attempt_id);
    expect(erased).toMatchObject({ attempt_id: hit.attempt_id, erased_at: at.toISOString() });
    expect(erased!.response_headers).toBeUndefined();
    expect(erased!.response_headers_dropped).toBeUndefined();
    expect(erased!.response_excerpt).toBeUndefined();
    const other = await reader.attempt(kept.account_id, kept.hook_id, kept.attempt_id);
    expect(other!.response_headers).toEqual({ 'x-caller': 'someone else' });
  });

  it("an erasure by call id matches the event's call_id field, and the call_id column only of a record without fields", async () => {
    // A kind without a call_id field shows its first field as the record's call id; an erasure by call id does
    // not reach it, as it does not reach the kind's events still queued or in an outbox (erasure-match.lua):
    // otherwise the same event would lose its records once in the database, and be delivered from its queue.
    const firstField = attemptRecord({
      event_type: 'sms_sent',
      event_fields: { EventType: 'sms_sent', msg_id: 'X-1', to: '+3312' },
      call_id: 'X-1',
    });
    const older = attemptRecord({ call_id: 'X-1' }); // written before records kept the event's fields
    const call = attemptRecord({
      event_fields: { EventType: 'call_created', call_id: 'X-1' },
      call_id: 'X-1',
    });
    await new HistoryWriter(client).write([firstField, older, call]);
    const at = new Date('2026-11-25T12:00:00.000Z');
    const erased = await eraseHistory(client, firstField.account_id, { kind: 'call_id', value: 'X-1' }, at);
    expect(erased.sort()).toEqual([older.event_id, call.event_id].sort());
    const reader = new HistoryReader(client, noOutbox, noHooks);
    const kept = await reader.attempt(firstField.account_id, firstField.hook_id, firstField.attempt_id);
    expect(kept).toMatchObject({ call_id: 'X-1', event_fields: { msg_id: 'X-1' } });
    expect(kept).not.toHaveProperty('erased_at');
  });

  it('keeps records by time and drops whole days past retention', async () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    const day = 24 * HOUR;
    await new HistoryWriter(client).write([
      attemptRecord({ attempted_at: new Date(now - 40 * day).toISOString() }),
      attemptRecord({ attempted_at: new Date(now - 29 * day).toISOString() }),
      attemptRecord({ attempted_at: new Date(now).toISOString() }),
    ]);
    const partitions = new Partitions(client);
    const dropped = await partitions.maintain(now, 30);
    expect(dropped.map((d) => new Date(d).toISOString().slice(0, 10))).toEqual(['2026-10-15']);
    const days = (await partitions.list()).map((d) => new Date(d).toISOString().slice(0, 10));
    expect(days).toEqual(['2026-10-26', '2026-11-24', '2026-11-25', '2026-11-26']);
    const [row] = await client.query<{ n: number }>('SELECT count(*) AS n FROM attempts');
    expect(row?.n).toBe(2);
  });
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly Plans?: readonly PlanNode[];
}

function nodeTypes(node: PlanNode): string[] {
  return [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];
}

/**
 * The client, with the plan of each read of `attempts` kept in `plans`: the reader's own SQL, explained as a
 * large table would be planned (sequential scans and sorts only where nothing else can answer).
 */
function explaining(client: SqlClient, plans: PlanNode[]): SqlClient {
  return {
    describe: client.describe,
    transaction: (work) => client.transaction(work),
    close: () => client.close(),
    async query(text, params) {
      if (/^SELECT .+ FROM attempts WHERE/s.test(text)) {
        const [row] = await client.transaction(async (sql) => {
          await sql.query('SET LOCAL enable_seqscan = off');
          await sql.query('SET LOCAL enable_sort = off');
          return sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
        });
        const explained = row!['QUERY PLAN'];
        const [{ Plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
          { Plan: PlanNode },
        ];
        plans.push(Plan);
      }
      return client.query(text, params);
    },
  };
}
