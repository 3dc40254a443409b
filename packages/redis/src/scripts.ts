import { loadScript } from './lua-script';

/**
 * The history outbox's scripts (the outbox lives here because the worker, the HTTP tier and the monitor all
 * use it). Every other script lives beside the code that owns it, each folder with a catalogue like this one,
 * all loaded the same way (lua-script.ts): the engine (packages/scheduler), BullMQ's contact points
 * (bullmq/scripts.ts), the account inbox (packages/queue), the attempt ledger and hook records
 * (packages/store), the failure streak (packages/suspension). Each file starts with its KEYS and ARGV, and
 * touches keys of one hash tag only, so they run on a Redis Cluster, except those that say they are for one Redis
 * only (the caller runs its Cluster path instead).
 */
export const SCRIPTS = {
  /** Trim records written to the database; take and give back the hooks a writer works on. */
  historyOutboxAck: loadScript('history-outbox-ack'),
  /**
   * A writer's round in one call each on one Redis (their keys span hooks, so not on a Redis Cluster): read
   * every hook taken, trim every hook written.
   */
  historyOutboxRead: loadScript('history-outbox-read'),
  historyOutboxAckAll: loadScript('history-outbox-ack-all'),
  historyClaim: loadScript('history-claim'),
  historyRelease: loadScript('history-release'),
  /** Erasure: empty the outbox records that an erasure reaches. */
  eraseOutbox: loadScript('erase-outbox'),
} as const;
