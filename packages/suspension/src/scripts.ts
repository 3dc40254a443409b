import { join } from 'node:path';
import { loadScript } from '@hookline/redis';

const DIR = join(__dirname, 'scripts');

/** Suspension's scripts. */
export const SUSPENSION_SCRIPTS = {
  /** One step of a failure streak; it pauses the hook's queue when the streak qualifies. */
  streakStep: loadScript('streak-step', DIR),
  /** Lets go of a hook's re-enable lock, if still the caller's (enabling.ts). */
  enablingRelease: loadScript('enabling-release', DIR),
} as const;
