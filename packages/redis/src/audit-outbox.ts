import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys';
import { SCRIPTS } from './scripts';

/** Entries read (and written to the database) at a time; also how far back readers look for unwritten ones. */
export const AUDIT_READ_MAX = 500;

/**
 * The Redis side of the audit log: entries wait here, in order, until the audit writer has them in PostgreSQL.
 * The change an entry describes is itself a Redis write, so appending the entry to the same server right
 * after it neither depends on the database being up nor makes the customer wait for it.
 */
export class AuditOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async append(entry: object): Promise<void> {
    await this.redis.rpush(this.keys.auditOutbox(), JSON.stringify(entry));
  }

  /** The oldest entries, as stored. */
  read(max = AUDIT_READ_MAX): Promise<string[]> {
    return this.redis.lrange(this.keys.auditOutbox(), 0, max - 1);
  }

  /** The newest entries not written yet, oldest first: readers show them before the database has them. */
  pending(max = AUDIT_READ_MAX): Promise<string[]> {
    return this.redis.lrange(this.keys.auditOutbox(), -max, -1);
  }

  /**
   * Trims the first `count` entries, written to the database; `last` is the last of them as read (the same
   * script as the history's outboxes: two writers can never trim what neither wrote). Returns how many are
   * left, or -1 when another writer had trimmed them already.
   */
  async ack(count: number, last: string): Promise<number> {
    return Number(await SCRIPTS.historyOutboxAck.run(this.redis, [this.keys.auditOutbox()], [count, last]));
  }
}
