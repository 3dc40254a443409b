import { join } from 'node:path';
import { loadScript } from '@hookline/redis';

const DIR = join(__dirname, 'scripts');

/**
 * The delivery engine's Lua scripts, by name; each file in scripts/ starts with its KEYS and ARGV, and
 * DESIGN.md says which invariant each one enforces. They touch the scheduler's own keys (one hash tag), so
 * they run on a Redis Cluster.
 */
export const ENGINE_SCRIPTS = {
  /** The ready set: signal hooks, claim them with a lease, renew and release leases, reclaim expired ones. */
  readySignal: loadScript('ready-signal', DIR),
  readyClaim: loadScript('ready-claim', DIR),
  readyRenew: loadScript('ready-renew', DIR),
  readyRelease: loadScript('ready-release', DIR),
  readyReclaim: loadScript('ready-reclaim', DIR),
  /** Watchdog: drop hooks found idle from the index of hooks with work, unless signalled since. */
  workForget: loadScript('work-forget', DIR),
  /** Watchdog: where hooks stand with the workers (signalled, leased, neither). */
  readyStatus: loadScript('ready-status', DIR),
  /** The lease that keeps the watchdog to one monitor at a time. */
  lockHold: loadScript('lock-hold', DIR),
} as const;
