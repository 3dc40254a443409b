export {
  NEVER_SUSPEND_FIELD,
  redisKeys,
  STREAK_FAILURES_KEPT,
  STREAK_IDLE_TTL_MS,
  SUSPENSION_DUE_AFTER_MS,
  type RedisKeys,
} from './keys';
export { LuaScript, loadScript, type ScriptClient } from './lua-script';
export {
  answersWithin,
  clusterAccess,
  createFailFastRedis,
  createRedis,
  createRequestRedis,
  type RedisTarget,
} from './connection';
export {
  CLUSTER_REQUEST_COMMAND_TIMEOUT_MS,
  commandTimeoutOf,
  isCommandTimedOut,
  REQUEST_COMMAND_TIMEOUT_MS,
} from './request-deadline';
export {
  redisAnswers,
  RedisServerMissing,
  startEmbeddedRedis,
  type EmbeddedRedis,
  type EmbeddedRedisExit,
} from './redis-server';
export { EmbeddedRedisDidNotStart, whyRedisServerStopped } from './embedded-redis-cause';
export {
  EMBEDDED_REDIS_RESTARTS,
  superviseEmbeddedRedis,
  type EmbeddedRedisSupervisor,
  type SupervisorLog,
} from './embedded-redis-supervisor';
export { EVENTS_MAX_LEN, HookQueues } from './bullmq/hook-queues';
export { SCRIPTS } from './scripts';
export { batchWritesPerTurn } from './turn-writes';
export { hookQueueLayout, PAUSED_FIELD, type HookQueueLayout } from './bullmq/layout';
export {
  HookJobs,
  type ActiveJob,
  type JobEnd,
  type JobOffer,
  type PreparedFinish,
  type PreparedTake,
} from './bullmq/hook-jobs';
export {
  HookJobAdder,
  type AddedJob,
  type AddFence,
  type NewJobOptions,
  type PreparedAdd,
} from './bullmq/hook-job-adder';
export {
  loadWithBullmq,
  loadWithBullmqAdd,
  MOVE_TO_ACTIVE,
  MOVE_TO_FINISHED,
  StaleFanOutError,
} from './bullmq/fenced-add';
export { deliverable, needsWorker, type HookBacklog } from './bullmq/hook-backlog';
export { type WaitingJob, type WaitingWindow, type WindowStart } from './bullmq/waiting-window';
export {
  HistoryOutbox,
  OutboxMarks,
  OUTBOX_IDLE_TTL_MS,
  OUTBOX_READ_MAX,
  type HistoryClaim,
  type OutboxSlice,
} from './history-outbox';
export { scriptFolderProblems } from './script-catalogue';
export { isNotServing, isRedisUnavailable, REPLICA_ACKS_MISSING, STALE_FANOUT } from './not-serving';
export { fewestReplicasOnline, mastersOf } from './replicas-online';
export { redisWhere, type RedisWhere } from './redis-where';
export { personalArg, type ErasureScope } from './erasure-scope';
export { AuditOutbox, AUDIT_READ_MAX } from './audit-outbox';
export {
  REPLICA_ACK_TIMEOUT_MS,
  ReplicaAcksMissingError,
  replicaAcksOf,
  requireReplicaAcks,
  callAcknowledged,
  runAcknowledged,
  runConfirmed,
  type Acknowledged,
} from './replica-acks';
export {
  FAILOVER_BUDGET_MS,
  findsPrimaryThroughSentinel,
  SENTINEL_REQUEST_WAIT_MS,
  untilReady,
} from './failover';
export { EgressWaits, type EgressFleetWait, type EgressWait, type EgressWaitCause } from './egress-waits';
export { watchPrimarySwitches, type PrimarySwitch, type SentinelSwitchWatcher } from './sentinel-switches';
