import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'start.pid';

/** Whether a process with this pid runs (signal 0 checks without sending anything). */
export function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `pnpm start` owns its data directory while it runs: the embedded PostgreSQL (PGlite) and the embedded Redis's
 * AOF there each take one process, and a second start on the same files would corrupt them (PGlite aborted
 * with no word of why). The lock is a file with the owner's pid, taken with O_EXCL; one left by a start that
 * was killed (its pid runs no more) is taken over. Released on a clean stop; a crash leaves it for the next
 * start to take over. Every failure names HOOKLINE_DATA_DIR, the setting that chose the directory.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = join(dataDir, LOCK_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new Error(`HOOKLINE_DATA_DIR=${dataDir}: cannot be made (${(error as Error).message})`);
  }
  for (let tries = 0; ; tries += 1) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0)
        throw new Error(`HOOKLINE_DATA_DIR=${dataDir}: cannot be used (${(error as Error).message})`);
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner !== process.pid && processRuns(owner))
        throw new Error(
          `HOOKLINE_DATA_DIR=${dataDir}: another pnpm start (pid ${owner}) uses this data directory. ` +
            'Stop it first, or give this one a HOOKLINE_DATA_DIR of its own.',
        );
      // Left by a start that did not stop cleanly: taken over.
      unlinkSync(file);
    }
  }
  return {
    release: () => {
      try {
        if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
      } catch {
        // Gone already: nothing to release.
      }
    },
  };
}
