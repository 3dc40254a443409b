export { streakStep, type StreakStep } from './rules';
export {
  readStreak,
  resetStreak,
  Streaks,
  type StreakInput,
  type StreakRules,
  type StreakVerdict,
} from './streaks';
export {
  recentFailures,
  recordSuspension,
  type Suspension,
  type SuspensionDeps,
  type SuspensionStore,
} from './recording';
export { streakReason } from './suspension-reason';
export { createHoldCap, dropHeldEvents, type DropOutcome, type HoldDeps } from './hold-cap';
export { HookControl, type HookControlDeps } from './control';
export { Suspender, type SuspenderDeps } from './suspender';
export { SuspendedIndex } from './suspended-index';
export {
  announce,
  NOTICE_FAILURES,
  NOTICE_GROUP,
  noticeFailures,
  parseNotice,
  type Notice,
  type NoticeFailure,
  type NoticeKind,
} from './notices';
