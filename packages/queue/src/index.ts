export { createFailFastRedis, createRedis } from './connection';
export { HookQueues } from './hook-queues';
export { DELIVER_JOB, KEEP_COMPLETED, KEEP_FAILED, type DeliverJobData } from './jobs';
export {
  MONITOR_GROUP,
  OUTCOME_STREAM_MAXLEN,
  outcomeFromFields,
  outcomeToFields,
  type OutcomeEvent,
} from './outcome-stream';
export { Producer, type ProducerDeps, type PublishResult } from './producer';
export { ReadySet } from './scheduler/ready-set';
