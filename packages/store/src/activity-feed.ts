import type { RedisKeys } from '@hookline/redis';
import type { ChainableCommander, Redis } from 'ioredis';
import { CappedJsonList } from './capped-list';
import type { ActivityEntry, ActivityFeed } from './contracts';

export const DEFAULT_ACTIVITY_MAX = 1000;

/** What happened to an account's hooks and by whom, newest first, bounded. */
export class RedisActivityFeed implements ActivityFeed {
  private readonly entries: CappedJsonList<ActivityEntry>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    max: number = DEFAULT_ACTIVITY_MAX,
  ) {
    this.entries = new CappedJsonList(redis, max);
  }

  async append(accountId: string, entry: ActivityEntry): Promise<void> {
    await this.entries.push(this.keys.accountActivity(accountId), entry);
  }

  /** Lets a change and its activity entry commit together. */
  appendInto(tx: ChainableCommander, accountId: string, entry: ActivityEntry): ChainableCommander {
    return this.entries.pushInto(tx, this.keys.accountActivity(accountId), entry);
  }

  list(accountId: string, limit: number): Promise<ActivityEntry[]> {
    return this.entries.list(this.keys.accountActivity(accountId), limit);
  }
}
