import { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { hookQueueLayout } from './layout';
import { EVENTS_MAX_LEN, HookQueues } from './hook-queues';
import { HookJobs, type JobOffer } from './hook-jobs';
import { redisKeys } from '../keys';

const jobOf = (offer: JobOffer) => {
  if (offer.kind !== 'job') throw new Error(`expected a job, got ${offer.kind}`);
  return offer.job;
};

describe('hook jobs through BullMQ without a Worker', () => {
  const ctx = useRedis('hook-jobs');
  const hookId = 'hk_jobs';
  let queue: Queue;
  let jobs: HookJobs;

  beforeEach(async () => {
    const keys = redisKeys(ctx.prefix);
    await new HookQueues(ctx.redis, keys).setUp(hookId);
    queue = new Queue(keys.hookQueueName(hookId), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    ctx.onCleanup(() => queue.close());
    jobs = new HookJobs(ctx.redis, keys, 2_000);
    for (const n of [1, 2, 3]) await queue.add('deliver.v1', { n }, { attempts: 1, removeOnComplete: 10 });
  });

  it('takes jobs in order, one active per hook, and finishes each with the next in the same step', async () => {
    const first = jobOf(await jobs.take(hookId, 'a:1'));
    expect(JSON.parse(first.data)).toEqual({ n: 1 });
    // Global concurrency 1: nobody else gets a job while this one is active, and its lock is live.
    const other = await jobs.take(hookId, 'b:1');
    expect(other.kind).toBe('locked');
    const second = await jobs.finish(first, { kind: 'completed', value: 'delivered' }, true);
    expect(second && JSON.parse(second.data)).toEqual({ n: 2 });
    const none = await jobs.finish(second!, { kind: 'failed', reason: 'failed 500' }, false);
    expect(none).toBeUndefined();
    expect(await queue.getJobCounts('completed', 'failed', 'waiting', 'active')).toEqual({
      completed: 1,
      failed: 1,
      waiting: 1,
      active: 0,
    });
    expect((await queue.getFailed())[0]!.failedReason).toBe('failed 500');
  });

  it('nothing is taken from a paused queue', async () => {
    await queue.pause();
    expect((await jobs.take(hookId, 'a:1')).kind).toBe('none');
  });

  it("a job whose holder is gone is taken over once its lock expires, under the new holder's token", async () => {
    const first = jobOf(await jobs.take(hookId, 'a:1'));
    const layout = hookQueueLayout(redisKeys(ctx.prefix), hookId);
    await ctx.redis.pexpire(layout.jobLock(first.id), 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const adopted = jobOf(await jobs.take(hookId, 'b:1'));
    expect(adopted.id).toBe(first.id);
    expect(await ctx.redis.get(layout.jobLock(first.id))).toBe('b:1');
    // The old holder's finish is refused: the job is someone else's now.
    await expect(jobs.finish(first, { kind: 'completed', value: 'delivered' }, true)).rejects.toThrow();
    expect(await jobs.extendLock(first)).toBe(false);
    expect(await jobs.extendLock(adopted)).toBe(true);
    const next = await jobs.finish(adopted, { kind: 'failed', reason: 'unknown' }, true);
    expect(next && JSON.parse(next.data)).toEqual({ n: 2 });
  });

  it("a job already locked with the caller's own token is handed back (a reply lost to a reconnect)", async () => {
    const first = jobOf(await jobs.take(hookId, 'a:1'));
    // The finish that fetched the next job ran, but its reply never came: the next job is active, ours.
    await jobs.finish(first, { kind: 'completed', value: 'delivered' }, true);
    const again = jobOf(await jobs.take(hookId, 'a:1'));
    expect(JSON.parse(again.data)).toEqual({ n: 2 });
    expect((await jobs.take(hookId, 'b:1')).kind).toBe('locked');
  });

  it('a job whose outcome is recorded is taken over at once, its old lock live (a completion lost in a failover)', async () => {
    const keys = redisKeys(ctx.prefix);
    const first = jobOf(await jobs.take(hookId, 'a:1'));
    // Its attempt is open (a request may be in flight): the old holder's live lock is waited for.
    await ctx.redis.set(keys.hookAttempt(hookId), `${first.id} a:1`);
    expect((await jobs.take(hookId, 'b:1')).kind).toBe('locked');
    // Recorded (`<job>:done`), but the job is still active under the old lock: the state a promoted replica
    // is left in when the holder's moveToFinished was not replicated in time.
    await ctx.redis.set(keys.hookAttempt(hookId), `${first.id}:done`);
    const adopted = jobOf(await jobs.take(hookId, 'b:2'));
    expect(adopted.id).toBe(first.id);
    expect(await ctx.redis.get(hookQueueLayout(keys, hookId).jobLock(first.id))).toBe('b:2');
    // The old holder is fenced; the new one finishes it and goes on in order.
    await expect(jobs.finish(first, { kind: 'completed', value: 'delivered' }, true)).rejects.toThrow();
    const next = await jobs.finish(adopted, { kind: 'completed', value: 'already_recorded' }, true);
    expect(next && JSON.parse(next.data)).toEqual({ n: 2 });
    // The next job's attempt is not recorded: its live lock is waited for again.
    expect((await jobs.take(hookId, 'c:1')).kind).toBe('locked');
  });
  it('a job put back unsent is waiting at the head, as Bull Board shows a job never started', async () => {
    const first = jobOf(await jobs.take(hookId, 'a:1'));
    expect(await jobs.requeue(first)).toBe(true);
    // Bull Board reads these through the queue: waiting, never processed, no attempt started.
    const job = (await queue.getJob(first.id))!;
    expect(await job.getState()).toBe('waiting');
    expect(job.processedOn).toBeUndefined();
    expect(job.attemptsStarted).toBe(0);
    // Taken again first, as if it had never been: its first start once more.
    const again = jobOf(await jobs.take(hookId, 'b:1'));
    expect(again.id).toBe(first.id);
    expect((await queue.getJob(first.id))!.attemptsStarted).toBe(1);
    // Only the holder's own job: a stale token puts nothing back.
    expect(await jobs.requeue(first)).toBe(false);
    expect(await job.getState()).toBe('active');
  });
});
