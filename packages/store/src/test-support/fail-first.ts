import type { AttemptRecord } from '@hookline/core';
import type { ActiveJob } from '@hookline/redis';
import type { hookWithJobs } from './hook-with-jobs';

type Opened = Pick<Awaited<ReturnType<typeof hookWithJobs>>, 'store' | 'hook' | 'jobs'>;

/** The record of a delivery of `eventId` that got a 500, attempted at `attemptedAt`. */
export const failedAttempt = (opened: Opened, eventId: string, attemptedAt: number): AttemptRecord => ({
  attempt_id: `att_${eventId}`,
  trigger: 'auto',
  account_id: opened.hook.account_id,
  hook_id: opened.hook.id,
  event_id: eventId,
  event_type: 'call_created',
  outcome: 'failed',
  status_code: 500,
  duration_ms: 3,
  attempted_at: new Date(attemptedAt).toISOString(),
});

/**
 * Takes the hook's first job (`evt_1`), begins its attempt and records its failure (attempted at `at`) as a
 * worker does, asking BullMQ for the next job in the same call: returns that next job, if it was given one.
 * `beforeOutcome` runs between the attempt's beginning and its outcome.
 */
export async function failFirst(
  opened: Opened,
  at = Date.now(),
  beforeOutcome: () => Promise<unknown> = async () => undefined,
): Promise<ActiveJob | undefined> {
  const { store, hook, jobs } = opened;
  const offer = await jobs.take(hook.id, 'w:1');
  if (offer.kind !== 'job') throw new Error(`expected a job, got ${offer.kind}`);
  const job = offer.job;
  const fence = { jobId: job.id, token: job.token };
  expect((await store.attempts.begin(hook.id, job.id, fence)).kind).toBe('send');
  await beforeOutcome();
  const done = await store.attempts.finishAndComplete(
    hook.id,
    failedAttempt(opened, job.id, at),
    fence,
    'failure',
    job.id,
    '{}',
    jobs.prepareFinish(job, { kind: 'failed', reason: 'failed 500' }, true),
  );
  expect(done.finished).toBe('recorded');
  return jobs.finished(job, done.jobReply);
}
