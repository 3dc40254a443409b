import { loadScript } from './lua-script';

/**
 * The history outbox's scripts (the outbox lives here because the worker, the HTTP tier and the monitor all
 * use it). Every other script lives beside the code that owns it, each folder with a catalogue like this one,
 * all loaded the same way (lua-script.ts): the engine (packages/scheduler), BullMQ's contact points
 * (bullmq/scripts.ts), the account inbox (packages/queue), the attempt ledger and hook records
 * (packages/store), the failure streak (packages/suspension). Each file starts with its KEYS and ARGV, and
 * touches keys of one hash tag only, so they run on a Redis Cluster.
 */
export const SCRIPTS = {
  /** Trim records written to the database; take and give back the hooks a writer works on. */
  historyOutboxAck: loadScript('history-outbox-ack'),
  historyClaim: loadScript('history-claim'),
  historyRelease: loadScript('history-release'),
  /** Erasure: empty the outbox records that an erasure reaches. */
  eraseOutbox: loadScript('erase-outbox'),
} as const;
