import { loadScript } from './lua-script';

/**
 * Every Lua script hookline runs, by name; each file in scripts/ starts with its KEYS and ARGV. Scripts
 * touch keys of one hash tag only (a hook, an account, or the scheduler), so they run on a Redis Cluster.
 */
export const SCRIPTS = {
  /** Scheduler: claim signalled hooks with a lease, renew and release it, signal hooks, reclaim expired leases. */
  readyClaim: loadScript('ready-claim'),
  readyRenew: loadScript('ready-renew'),
  readyRelease: loadScript('ready-release'),
  readySignal: loadScript('ready-signal'),
  readyReclaim: loadScript('ready-reclaim'),
  /** Watchdog: where hooks stand with the workers (signalled, leased, neither); the lease that keeps it to one monitor. */
  readyStatus: loadScript('ready-status'),
  lockHold: loadScript('lock-hold'),
  /** Account inbox: accept an event (idempotency, hook snapshot, entry) and the recovery index. */
  inboxAccept: loadScript('inbox-accept'),
  inboxMark: loadScript('inbox-mark'),
  inboxQuietAccounts: loadScript('inbox-quiet-accounts'),
  inboxForget: loadScript('inbox-forget'),
  inboxOlderThan: loadScript('inbox-older-than'),
  /** Hook records. */
  hookChange: loadScript('hook-change'),
  /** A hook's subscription, set only while the hook is in its account's index. */
  hookEventsSet: loadScript('hook-events-set'),
  /** Hook queues: does the hook need a worker; take over the active job of a holder that is gone. */
  hookNeedsWorker: loadScript('hook-needs-worker'),
  /** A hook's backlog for the watchdog and the fleet figures: waiting, active, paused, oldest event. */
  hookBacklog: loadScript('hook-backlog'),
  jobAdopt: loadScript('job-adopt'),
  /** The attempt ledger: mark an attempt before the request, record its outcome after. */
  attemptBegin: loadScript('attempt-begin'),
  attemptFinish: loadScript('attempt-finish'),
  /** Take an attempt's mark back: the egress proxy kept its request from leaving. */
  attemptRelease: loadScript('attempt-release'),
  /** History: trim records written to the database; take and give back the hooks a writer works on. */
  historyOutboxAck: loadScript('history-outbox-ack'),
  historyClaim: loadScript('history-claim'),
  historyRelease: loadScript('history-release'),
  /** Suspension: one step of a failure streak, pausing a hook once, dropping its oldest held events. */
  streakStep: loadScript('streak-step'),
  hookPauseOnce: loadScript('hook-pause-once'),
  heldDropOldest: loadScript('held-drop-oldest'),
} as const;
