import type { SqlClient } from './sql-client';

const DAY_MS = 24 * 3600 * 1000;
/** The day-partitioned tables: the delivery history, and the audit log kept the same way. */
export type PartitionedTable = 'attempts' | 'audit_entries';
/** Held while partitions are created or dropped, so processes doing it at once never collide. */
const PARTITION_LOCK = 7_401_316_002;

/** The UTC day an instant falls in, as the start of that day (ms). */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function partitionName(dayStart: number, table: PartitionedTable = 'attempts'): string {
  return `${table}_${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayOfPartition(name: string, table: PartitionedTable): number | undefined {
  const m = new RegExp(`^${table}_(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

/**
 * The history's daily partitions: made before records need them (the writer asks for the days of each
 * batch; maintenance makes today's and the next days' ahead of time), dropped whole once past retention.
 */
export class Partitions {
  private readonly known = new Set<number>();

  constructor(
    private readonly client: SqlClient,
    private readonly table: PartitionedTable = 'attempts',
  ) {}

  /** Makes sure a partition exists for each of these days (UTC day starts). */
  async ensure(days: Iterable<number>): Promise<void> {
    const missing = [...new Set(days)].filter((day) => !this.known.has(day));
    if (missing.length === 0) return;
    await this.client.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      for (const day of missing) {
        const from = new Date(day).toISOString();
        const to = new Date(day + DAY_MS).toISOString();
        await sql.query(
          `CREATE TABLE IF NOT EXISTS ${partitionName(day, this.table)} PARTITION OF ${this.table} FOR VALUES FROM ('${from}') TO ('${to}')`,
        );
      }
    });
    for (const day of missing) this.known.add(day);
  }

  /** Every partition's day, oldest first. */
  async list(): Promise<number[]> {
    const rows = await this.client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i
         JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = $1 AND p.relnamespace = current_schema()::regnamespace`,
      [this.table],
    );
    return rows
      .map((r) => dayOfPartition(r.name, this.table))
      .filter((d): d is number => d !== undefined)
      .sort((a, b) => a - b);
  }

  /**
   * Drops every partition whose whole day is older than `retentionDays` before `now`, and makes today's and
   * the next two days' partitions. Returns the dropped days.
   */
  async maintain(now: number, retentionDays: number): Promise<number[]> {
    const today = dayOf(now);
    await this.ensure([today, today + DAY_MS, today + 2 * DAY_MS]);
    const horizon = now - retentionDays * DAY_MS;
    const old = (await this.list()).filter((day) => day + DAY_MS <= horizon);
    if (old.length === 0) return [];
    await this.client.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      for (const day of old) await sql.query(`DROP TABLE IF EXISTS ${partitionName(day, this.table)}`);
    });
    for (const day of old) this.known.delete(day);
    return old;
  }

  /** The oldest instant records are kept for: anything attempted before it is not written any more. */
  static horizon(now: number, retentionDays: number): number {
    return dayOf(now - retentionDays * DAY_MS);
  }
}
