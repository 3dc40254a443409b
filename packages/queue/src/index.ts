export {
  DEDUPE_AFTER_DONE_MS,
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  FANOUT_FENCED_AFTER_MS,
  FANOUT_STALE_MS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  parseDeliverJob,
  type DeliverJobData,
} from './jobs';
export { MONITOR_GROUP, outcomeFromFields, type OutcomeEvent } from './outcome-stream/codec';
export { appendOutcome } from './outcome-stream/append';
export { StreamGroupReader, type StreamGroupReaderOptions, type StreamEntry } from './stream-group-reader';
export { Producer, type ProducerDeps, type PublishOptions, type PublishResult } from './producer';
export { InboxRecovery, INBOX_GRACE_MS, type InboxRecoveryDeps } from './inbox/inbox-recovery';
export { createInboxFanOut, type FanOut } from './inbox/fan-out';
export type { InboxEntry } from './inbox/inbox-entry';
export { INBOX_SCRIPTS } from './inbox/scripts';
