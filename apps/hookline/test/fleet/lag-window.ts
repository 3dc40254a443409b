import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisServerProcess } from '@hookline/testing';
import type { LagWindow } from './exposure';

/** How long the primary writes on after its replica stopped copying, before it is killed. */
export const LAG_MS = 400;

/**
 * Kills `primary` with SIGKILL so that `replica`, promoted next, really lacks the primary's last LAG_MS of
 * writes. Freezing the replica (SIGSTOP) alone does not do it: the primary's writes wait in the kernel's
 * socket buffers (megabytes on loopback, far more than 400 ms of this load), a killed process's socket still
 * delivers what it had sent, and the thawed replica reads all of it before its promotion — measured: 300 of
 * 300 writes made during the freeze arrived. So the replica is frozen and then its replication link is cut
 * from the primary's side (`CLIENT KILL TYPE replica`): what was sent before the cut still arrives, nothing
 * written after it does, and the frozen replica cannot reconnect until the primary is gone (measured: 0 of
 * 300). The window is from the cut to the kill.
 */
export async function killWithLag(
  primary: RedisServerProcess,
  replica: RedisServerProcess,
): Promise<LagWindow> {
  replica.freeze();
  try {
    await primary.call((r) => r.call('CLIENT', 'KILL', 'TYPE', 'replica'));
    const from = Date.now();
    await sleep(LAG_MS);
    await primary.kill();
    return { from, to: Date.now() };
  } finally {
    replica.thaw();
  }
}
