import type { AuditInput } from '@hookline/core';
import { AuditOutbox, redisKeys } from '@hookline/redis';
import { usePostgres, useRedis } from '@hookline/testing';
import { AuditDrain } from '../src/audit-drain';
import { AuditReader, AuditWriter, decodeAuditCursor } from '../src/audit-log';
import { AuditTrail } from '../src/audit-trail';
import { pgClient } from '../src/pg-client';
import { migrate } from '../src/schema';
import type { SqlClient } from '../src/sql-client';

const DAY = 24 * 3600_000;

const input = (n: number, accountId = 'acct_0000000001'): AuditInput => ({
  account_id: accountId,
  action: 'hook.updated',
  hook_id: 'hk_00000000000000000001',
  actor: { kind: 'operator_key', key: 'sha256:0123456789abcdef' },
  address: '127.0.0.1',
  detail: { fields: [`field${n}`] },
});

describe('the audit log: Redis outbox, PostgreSQL table, retention', () => {
  const redisCtx = useRedis('audit');
  const pgCtx = usePostgres('audit');
  let client: SqlClient;
  let now: number;
  let outbox: AuditOutbox;
  let trail: AuditTrail;
  let drain: AuditDrain;
  const logged: unknown[] = [];

  beforeEach(async () => {
    client = pgClient({ url: pgCtx.url, schema: pgCtx.schema });
    await migrate(client, pgCtx.schema);
    now = Date.UTC(2026, 10, 25, 12);
    const clock = () => new Date(now);
    outbox = new AuditOutbox(redisCtx.redis, redisKeys(redisCtx.prefix));
    const reader = new AuditReader(client, outbox);
    logged.length = 0;
    trail = new AuditTrail(outbox, reader, (entry) => logged.push(entry), clock);
    drain = new AuditDrain({
      outbox,
      writer: new AuditWriter(client),
      retentionDays: 30,
      clock,
      onError: (error) => {
        throw error;
      },
    });
  });
  afterEach(() => client.close());

  const rows = async () =>
    client.query<{ id: string; action: string; actor: unknown; detail: unknown }>(
      'SELECT id, action, actor, detail FROM audit_entries ORDER BY at, id',
    );

  it('moves entries to the database once each, and readers see them before and after', async () => {
    const first = await trail.record(input(1));
    now += 1000;
    await trail.record(input(2));
    // Readable at once, from the outbox.
    expect((await trail.list('acct_0000000001', { limit: 10 })).data.map((e) => e.detail.fields)).toEqual([
      ['field2'],
      ['field1'],
    ]);
    expect(logged).toHaveLength(2);

    expect(await drain.round()).toBe(2);
    expect(await drain.round()).toBe(0);
    const written = await rows();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({
      id: first.id,
      action: 'hook.updated',
      actor: { kind: 'operator_key', key: 'sha256:0123456789abcdef' },
      detail: { fields: ['field1'] },
    });
    // The same entry written again (a writer killed before its trim) is not duplicated.
    await new AuditWriter(client).write([first]);
    expect(await rows()).toHaveLength(2);
    const page = await trail.list('acct_0000000001', { limit: 10 });
    expect(page.data.map((e) => e.id)).toEqual([written[1]!.id, first.id]);
    expect(page.data[1]).toEqual(first);
  });

  it('pages newest first with a cursor, one account only', async () => {
    for (let n = 0; n < 5; n++) {
      await trail.record(input(n));
      await trail.record(input(n, 'acct_0000000002'));
      now += 1000;
    }
    await drain.round();
    const one = await trail.list('acct_0000000001', { limit: 2 });
    expect(one.data.map((e) => e.detail.fields![0])).toEqual(['field4', 'field3']);
    const two = await trail.list('acct_0000000001', {
      limit: 2,
      cursor: decodeAuditCursor(one.next_cursor!)!,
    });
    expect(two.data.map((e) => e.detail.fields![0])).toEqual(['field2', 'field1']);
    const three = await trail.list('acct_0000000001', {
      limit: 2,
      cursor: decodeAuditCursor(two.next_cursor!)!,
    });
    expect(three.data.map((e) => e.detail.fields![0])).toEqual(['field0']);
    expect(three.next_cursor).toBeUndefined();
    expect(decodeAuditCursor('not-a-cursor')).toBeUndefined();
  });

  it('keeps entries in day partitions and drops whole days past retention', async () => {
    await trail.record(input(1));
    await drain.round();
    const writer = new AuditWriter(client);
    expect(await writer.partitions.list()).toEqual([Date.UTC(2026, 10, 25)]);
    // 31 days later the day is past the 30 days kept: its partition goes, with the entry.
    now += 31 * DAY;
    await writer.partitions.maintain(now, 30);
    expect(await writer.partitions.list()).not.toContain(Date.UTC(2026, 10, 25));
    expect(await rows()).toEqual([]);
  });

  it('drops (and says so) what cannot be written: older than retention, or not an entry', async () => {
    const dropped: [string, number][] = [];
    const old = await trail.record(input(1));
    await redisCtx.redis.rpush(redisKeys(redisCtx.prefix).auditOutbox(), 'not json');
    now += 40 * DAY;
    const dropping = new AuditDrain({
      outbox,
      writer: new AuditWriter(client),
      retentionDays: 30,
      clock: () => new Date(now),
      onDropped: (why, count) => dropped.push([why, count]),
      onError: () => undefined,
    });
    expect(await dropping.round()).toBe(2);
    expect(dropped).toEqual([
      ['unparsable', 1],
      ['older than retention', 1],
    ]);
    expect(await outbox.read()).toEqual([]);
    expect((await rows()).map((r) => r.id)).not.toContain(old.id);
  });
});
