import { join } from 'node:path';
import { loadScript } from '../lua-script';
import { loadFencedAdd } from './fenced-add';

const DIR = join(__dirname, 'scripts');

/**
 * hookline's own scripts over BullMQ's keys of a hook queue. They live in this folder because they know
 * BullMQ's layout; they are handed the key names, and the paused field, by their callers here (layout.ts
 * defines them once). A script elsewhere that touches a queue (the failure streak's pause) gets the same.
 */
export const BULLMQ_SCRIPTS = {
  /** Does the hook need a worker (events it can take, or a job in progress whose holder may be gone). */
  hookNeedsWorker: loadScript('hook-needs-worker', DIR),
  /** A hook's backlog for the watchdog and the fleet figures: waiting, active, paused, oldest event. */
  hookBacklog: loadScript('hook-backlog', DIR),
  /** A window of a hook's waiting (held) events in delivery order: the website's held list and the API's. */
  waitingWindow: loadScript('waiting-window', DIR),
  /** Take over the active job of a holder that is gone (its lock expired). */
  jobAdopt: loadScript('job-adopt', DIR),
  /** Let go of the lock of an active job that was never sent, so the next holder takes it at once. */
  jobUnlock: loadScript('job-unlock', DIR),
  /** Put a job that was never sent back at the head of its queue (held there while the hook is paused). */
  jobRequeue: loadScript('job-requeue', DIR),
  /** Suspension's pause, once across callers; the hold cap's drop of the oldest held events. */
  hookPauseOnce: loadScript('hook-pause-once', DIR),
  heldDropOldest: loadScript('held-drop-oldest', DIR),
  /** Erasure: remove waiting or held events it reaches; empty the retained finished jobs it reaches. */
  eraseWaiting: loadScript('erase-waiting', DIR),
  eraseRetained: loadScript('erase-retained', DIR),
  /** Erasure: remove the active job it reaches when its holder is gone. */
  eraseActive: loadScript('erase-active', DIR),
  /** A fan-out's add: BullMQ's own addStandardJob, refused to a fan-out that read its entry too long ago. */
  fencedAdd: loadFencedAdd(DIR),
} as const;
