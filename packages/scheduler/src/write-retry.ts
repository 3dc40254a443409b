import { setTimeout as sleep } from 'node:timers/promises';

// How long a worker keeps trying to record an outcome whose request has left, when the write fails: as long
// as the job's lock (25 s by default; start-worker.ts passes it), since nobody can take the job over before
// then. Giving up sooner left the job active with its attempt marked, and the next event too when the
// script's first run had taken and marked it: whoever took over recorded both `unknown`, the second never
// sent. A failover with replica acknowledgements needs the promotion and a replica back (the Sentinel
// failover test saw 17 s under load), and a write queued behind other WAITs on its connection may itself
// take seconds before it fails. The write is safe to repeat: the finish script records once and answers
// "recorded" to a repeat by the same holder (`again` when its first run also completed the job: the lock
// went with it), and refuses (`fenced`) once the lock is someone else's.

/**
 * Runs `write` until it succeeds or `budgetMs` has passed since the first failure (not since the first call,
 * which may have waited long for a reconnect before failing); then throws the last error.
 */
export async function retryWrite<T>(
  write: () => Promise<T>,
  budgetMs: number,
  onRetry: (error: unknown, attempt: number) => void,
): Promise<T> {
  let failedAt: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      failedAt ??= Date.now();
      if (Date.now() - failedAt >= budgetMs) throw error;
      onRetry(error, attempt);
      await sleep(Math.min(100 * 2 ** (attempt - 1), 1000));
    }
  }
}
