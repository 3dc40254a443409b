export {
  connectRedis,
  deletePrefix,
  keysMatching,
  TEST_REDIS_URL,
  uniquePrefix,
  useRedis,
} from './redis-fixture';
export {
  startRedisCluster,
  useRedisCluster,
  type RedisClusterFixture,
  type RedisClusterNode,
  type RedisClusterOptions,
} from './redis-cluster';
export { startReceiver, type Behaviour, type ReceivedRequest, type Receiver } from './receiver';
export { waitUntil, waitUntilSettled } from './wait-until';
export { watchCommands, type CommandWatch } from './redis-monitor';
export { spawnEntry, type SpawnedProcess } from './processes';
export { launchChromium } from './chromium';
export * from './pg-fixture';
export { startRedisSentinel, useRedisPair, type RedisSentinelFixture } from './redis-sentinel';
export { RedisServerProcess, startRedisServer, withServerLogs } from './redis-servers';
export { startTcpRelay, type TcpRelay } from './tcp-relay';
export { freePorts } from './ports';
export { machineText } from './plain-words';
export { axeViolations } from './axe';
export { startTinyproxy, type Tinyproxy, type TinyproxyOptions } from './tinyproxy';
export { makeTestPki, type TestCertificate, type TestPki } from './test-pki';
export { CALLBACK_CATALOG } from './catalogs';
