import type { DeliveryRecord } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { ChainableCommander, Redis } from 'ioredis';
import { CappedJsonList } from './capped-list';
import type { DeliveryLog } from './contracts';

export const DEFAULT_DELIVERY_LOG_MAX = 1000;

/** Each hook's most recent delivery records, newest first, bounded. */
export class RedisDeliveryLog implements DeliveryLog {
  private readonly records: CappedJsonList<DeliveryRecord>;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    max: number = DEFAULT_DELIVERY_LOG_MAX,
  ) {
    this.records = new CappedJsonList(redis, max);
  }

  async append(hookId: string, record: DeliveryRecord): Promise<void> {
    await this.records.push(this.keys.hookDeliveries(hookId), record);
  }

  list(hookId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.records.list(this.keys.hookDeliveries(hookId), limit);
  }

  /** Removal of the whole log goes with the hook's other keys, in the caller's transaction. */
  removeInto(tx: ChainableCommander, hookId: string): ChainableCommander {
    return tx.del(this.keys.hookDeliveries(hookId));
  }
}
