export { clusterAccess, createFailFastRedis, createRedis, type RedisTarget } from './connection';
export { HookQueues } from './hook-queues';
export {
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  EVENTS_MAX_LEN,
  KEEP_COMPLETED,
  KEEP_FAILED,
  type DeliverJobData,
} from './jobs';
export {
  MONITOR_GROUP,
  OUTCOME_STREAM_MAXLEN,
  outcomeFromFields,
  outcomeToFields,
  type OutcomeEvent,
} from './outcome-stream';
export { Producer, type ProducerDeps, type PublishResult } from './producer';
export { InboxRecovery, INBOX_GRACE_MS, type InboxRecoveryDeps } from './inbox/inbox-recovery';
export { ReadySet } from './scheduler/ready-set';
export { createHoldCap, dropHeldEvents, type DropOutcome, type HoldDeps } from './hold-cap';
export { HookControl, type HeldChoice, type HookControlDeps } from './hook-control';
export {
  Streaks,
  streakStep,
  type StreakInput,
  type StreakRules,
  type StreakStep,
  type StreakVerdict,
} from './streak';
export {
  pauseOnce,
  recentFailures,
  recordSuspension,
  streakReason,
  type LogSink,
  type Suspension,
  type SuspensionDeps,
  type SuspensionStore,
} from './suspension';
export { mountBullBoard, type BullBoardDeps } from './bull-board/mount-bull-board';
export type { AdminCredentials } from './bull-board/admin-auth';
export type { BoardRegistry } from './bull-board/board-registry';
export { createServices, type ServiceSettings, type Services } from './services';
export { redisAnswers, RedisServerMissing, startEmbeddedRedis } from './redis-server';
