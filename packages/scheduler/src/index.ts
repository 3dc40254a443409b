export { ReadySet } from './ready-set';
export { WorkerRoster, ALIVE_WITHIN_MS, ROSTER_FORGET_MS, type WorkerBeat } from './worker-roster';
export { HookSweep } from './watchdog/hook-sweep';
export { Watchdog, type StuckReport, type WatchdogDeps } from './watchdog/watchdog';
export {
  figuresFromHash,
  figuresToHash,
  TOP_HOOKS,
  type FleetFigures,
  type HookWait,
} from './watchdog/fleet-figures';
export { HookConsumer, type ConsumerDeps } from './consumer/hook-consumer';
export {
  DEFAULT_TIMINGS,
  ENGINE_TIMINGS,
  engineFigures,
  timingTable,
  type ConsumerTimings,
  type EngineFigures,
} from './timings';
export type { BegunNext, DeliveryEnd, EgressWaiting, JobCompleting, JobSource } from './consumer/job-source';
export { ENGINE_SCRIPTS } from './scripts';
export { retryWrite } from './write-retry';
