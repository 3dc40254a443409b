import { setTimeout as sleep } from 'node:timers/promises';

// How long a worker keeps trying a call about a job it may have marked, when the call fails: as long as the
// job's lock (25 s by default; start-worker.ts passes it), since nobody can take the job over before then.
// Two such calls: recording an outcome whose request has left (apps/worker's OutcomeRecorder), and taking
// again, by the holding's own token, the job a lost reply handed it (consumer/drain.ts: a take's script or an
// outcome's may have marked that job; left behind, it waits out its lock and is recorded `unknown`, never sent).
//
// For the outcome, giving up sooner left the job active with its attempt marked, and the next event too when the
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
