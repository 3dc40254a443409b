import IORedis, { type Redis, type RedisOptions } from 'ioredis';

// BullMQ requires maxRetriesPerRequest: null on connections it blocks on; we use it everywhere so that a
// Redis restart makes commands wait for the reconnect instead of failing half-way through a delivery.
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/** For request paths (the API): fail fast so a Redis outage becomes a 503, not a hung request. */
export function createFailFastRedis(url: string, options: RedisOptions = {}): Redis {
  return new IORedis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    ...options,
  });
}
