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
export { Producer, type ProducerDeps, type PublishOptions, type PublishResult } from './producer';
export { InboxRecovery, INBOX_GRACE_MS, type InboxRecoveryDeps } from './inbox/inbox-recovery';
export { ReadySet } from './scheduler/ready-set';
export { HookSweep } from './scheduler/hook-sweep';
export { WorkerRoster, ROSTER_FORGET_MS, type WorkerBeat } from './scheduler/worker-roster';
export { Watchdog, type StuckReport, type WatchdogDeps } from './scheduler/watchdog';
export {
  figuresFromHash,
  figuresToHash,
  TOP_HOOKS,
  type FleetFigures,
  type HookWait,
} from './scheduler/fleet-figures';
