export { connectRedis, deletePrefix, TEST_REDIS_URL, uniquePrefix, useRedis } from './redis-fixture';
export { startReceiver, type Behaviour, type ReceivedRequest, type Receiver } from './receiver';
export { waitUntil } from './wait-until';
export { spawnEntry, type SpawnedProcess } from './processes';
