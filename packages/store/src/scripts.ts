import { join } from 'node:path';
import { loadScript, loadWithBullmq, MOVE_TO_ACTIVE, MOVE_TO_FINISHED } from '@hookline/redis';

const DIR = join(__dirname, 'scripts');

/** The store's scripts: the attempt ledger (before and after a request) and hook records. */
export const STORE_SCRIPTS = {
  /**
   * Mark an attempt before the request (fenced by the job's lock), record its outcome after (and, given its
   * keys, complete the job with BullMQ's moveToFinished in the same script).
   */
  attemptBegin: loadScript('attempt-begin', DIR),
  attemptFinish: loadWithBullmq('attempt-finish', DIR, MOVE_TO_FINISHED),
  /** Takes a hook's next job with BullMQ's moveToActive and marks its attempt, in one script. */
  attemptTake: loadWithBullmq('attempt-take', DIR, MOVE_TO_ACTIVE),
  /** Takes back a mark the replicas did not acknowledge (HOOKLINE_REDIS_REPLICA_ACKS): nothing was sent. */
  attemptWithdraw: loadScript('attempt-withdraw', DIR),
  /** An erasure's fence in one hook, up and down, counting the running erasures behind each tag. */
  erasureFenceUp: loadScript('erasure-fence-up', DIR),
  erasureFenceDown: loadScript('erasure-fence-down', DIR),
  /** A deleted hook's keys, but the mark of an attempt still in flight (its outcome is recorded after). */
  hookKeysDrop: loadScript('hook-keys-drop', DIR),
  /** Change a hook record (and its version) only while it exists. */
  hookChange: loadScript('hook-change', DIR),
  /**
   * A change's subscription and filter on event fields, set only while the hook is in its account's index, and
   * never over those of a later change.
   */
  hookRoutingSet: loadScript('hook-routing-set', DIR),
  /** The hooks' endpoint URLs for the admin area's search: written newest version first, searched a slice at a time. */
  hookUrlSet: loadScript('hook-url-set', DIR),
  hookUrlScan: loadScript('hook-url-scan', DIR),
  /** Takes an attempt off a sign-in counter, never making one that has expired again. */
  loginGiveBack: loadScript('login-give-back', DIR),
  /** Sign-in links: use one once, before it expires (server clock). */
  portalLinkUse: loadScript('portal-link-use', DIR),
} as const;
