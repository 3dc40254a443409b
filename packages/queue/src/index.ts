export {
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  KEEP_COMPLETED,
  KEEP_FAILED,
  parseDeliverJob,
  type DeliverJobData,
} from './jobs';
export { MONITOR_GROUP, outcomeFromFields, type OutcomeEvent } from './outcome-stream/codec';
export { appendOutcome } from './outcome-stream/append';
export { OutcomeConsumer, type OutcomeConsumerOptions, type StreamEntry } from './outcome-stream/consumer';
export { Producer, type ProducerDeps, type PublishResult } from './producer';
export { InboxRecovery, INBOX_GRACE_MS, type InboxRecoveryDeps } from './inbox/inbox-recovery';
export { INBOX_SCRIPTS } from './inbox/scripts';
