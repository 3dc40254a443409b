import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a worker keeps trying to record an outcome whose request has left, when the write fails: a little
 * longer than a Redis promotion (3–8 s; the client's own retries cover most of it). Giving up sooner leaves
 * the job active with its attempt marked, and whoever takes it over 25 s later records `unknown` for a request
 * that was answered. The write is safe to repeat: the finish script records once and answers "recorded" to a
 * repeat by the same holder (`again` when its first run also completed the job: the lock went with it), and
 * refuses (`fenced`) once the lock is someone else's.
 */
export const OUTCOME_RETRY_MS = 10_000;

/** Runs `write` until it succeeds or `budgetMs` has passed since the first failure; then throws the last error. */
export async function retryWrite<T>(
  write: () => Promise<T>,
  budgetMs: number,
  onRetry: (error: unknown, attempt: number) => void,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (Date.now() - started >= budgetMs) throw error;
      onRetry(error, attempt);
      await sleep(Math.min(100 * 2 ** (attempt - 1), 1000));
    }
  }
}
