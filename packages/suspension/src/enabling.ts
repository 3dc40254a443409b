import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { HooklineError } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { SUSPENSION_SCRIPTS } from './scripts';

// One re-enable of a hook at a time, whichever process (API, website, Bull Board) runs it. A re-enable is many
// steps (a probe, then held events discarded or counted, then the queue's paused flag cleared); two at once
// could each run the first steps before one of them wins the flag: the loser would have discarded events the
// winner promised to deliver, or sent a probe beside the winner's (two requests in flight to one hook). The
// second waits for the first and then finds the hook as the first left it.

/** How often a waiting re-enable looks again. */
const WAIT_STEP_MS = 100;

export interface EnablingLock {
  release(): Promise<void>;
}

/**
 * Takes the hook's re-enable lock, waiting while another holds it. `ttlMs` covers the longest re-enable (a
 * probe's deadline, then the held events' work): a holder that dies lets go when it runs out. A wait longer
 * than that answers CONFLICT.
 */
export async function takeEnablingLock(
  redis: Redis,
  keys: RedisKeys,
  hookId: string,
  ttlMs: number,
): Promise<EnablingLock> {
  const key = keys.hookEnabling(hookId);
  const token = randomBytes(12).toString('hex');
  const until = Date.now() + ttlMs;
  for (;;) {
    if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK')
      return {
        release: async () => {
          await SUSPENSION_SCRIPTS.enablingRelease.run(redis, [key], [token]);
        },
      };
    if (Date.now() >= until)
      throw new HooklineError(
        'CONFLICT',
        'Another re-enable of this hook is still running; look at the hook again in a moment',
      );
    await sleep(WAIT_STEP_MS);
  }
}
