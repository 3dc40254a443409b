import { loadScript } from './lua-script';

/**
 * The Lua scripts of the packages below the delivery engine, by name (the engine's own are in
 * packages/scheduler/src/scripts.ts, loaded the same way); each file in scripts/ starts with its KEYS and ARGV. Scripts
 * touch keys of one hash tag only (a hook, an account, or the scheduler), so they run on a Redis Cluster.
 */
export const SCRIPTS = {
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
  /** The attempt ledger: mark an attempt before the request, record its outcome after. */
  attemptBegin: loadScript('attempt-begin'),
  attemptFinish: loadScript('attempt-finish'),
  /** History: trim records written to the database; take and give back the hooks a writer works on. */
  historyOutboxAck: loadScript('history-outbox-ack'),
  historyClaim: loadScript('history-claim'),
  historyRelease: loadScript('history-release'),
  /** Suspension: one step of a failure streak (it pauses the hook's queue when the streak qualifies). */
  streakStep: loadScript('streak-step'),
} as const;
