import type { AttemptRecord, HookView } from '@hookline/core';
import {
  type HookJobs,
  type hookQueueLayout,
  type ActiveJob,
  type JobEnd,
  type PreparedFinish,
  type RedisKeys,
} from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AttemptFence, StreakStep } from './contracts';
import type { Store } from './create-store';
import { hookWithJobs } from './test-support/hook-with-jobs';

// The outcome's script completes the job too (BullMQ's moveToFinished as shipped, run after the outcome on the
// job's slot): one round trip for both. What the queue, the attempt key and the history outbox hold after it.
const DELIVERED: JobEnd = { kind: 'completed', value: 'delivered' };

describe("an outcome recorded with its job's completion", () => {
  const ctx = useRedis('store-finish-job');
  let store: Store;
  let hook: HookView;
  let jobs: HookJobs;
  let layout: ReturnType<typeof hookQueueLayout>;
  let keys: RedisKeys;

  beforeEach(async () => {
    ({ store, keys, hook, jobs, layout } = await hookWithJobs(ctx));
  });

  /** The queue's states, read from BullMQ's keys. */
  const counts = async () => ({
    completed: await ctx.redis.zcard(layout.completed),
    failed: await ctx.redis.zcard(layout.failed),
    waiting: await ctx.redis.llen(layout.wait),
    active: await ctx.redis.llen(layout.active),
  });
  const jobField = (jobId: string, field: string) => ctx.redis.hget(layout.jobPrefix + jobId, field);

  const take = async (token: string): Promise<ActiveJob> => {
    const offer = await jobs.take(hook.id, token);
    if (offer.kind !== 'job') throw new Error(`expected a job, got ${offer.kind}`);
    return offer.job;
  };

  const record = (eventId: string): AttemptRecord => ({
    attempt_id: `att_${eventId}`,
    trigger: 'auto',
    account_id: hook.account_id,
    hook_id: hook.id,
    event_id: eventId,
    event_type: 'call_created',
    outcome: 'delivered',
    duration_ms: 3,
    attempted_at: new Date().toISOString(),
  });

  const outboxLength = () => ctx.redis.llen(keys.hookHistoryOutbox(hook.id));

  /**
   * Records the job's attempt (delivered, unless said) and completes the job in the same call: as `end`,
   * taking the next job when `fetchNext`, or with a `completion` prepared before.
   */
  function complete(
    job: ActiveJob,
    fence: AttemptFence,
    options: {
      end?: JobEnd;
      fetchNext?: boolean;
      completion?: PreparedFinish;
      attempt?: AttemptRecord;
      step?: StreakStep;
      emptied?: string;
      markNext?: boolean;
    } = {},
  ) {
    const { end = DELIVERED, fetchNext = true, attempt = record(job.id), emptied = '{}' } = options;
    return store.attempts.finishAndComplete(
      hook.id,
      attempt,
      fence,
      'step' in options ? options.step : 'delivered',
      job.id,
      emptied,
      options.completion ?? jobs.prepareFinish(job, end, fetchNext),
      options.markNext,
    );
  }

  async function begun(job: ActiveJob): Promise<AttemptFence> {
    const fence = { jobId: job.id, token: job.token };
    expect((await store.attempts.begin(hook.id, job.id, fence)).kind).toBe('send');
    return fence;
  }

  it('records the outcome, completes the job and takes the next under the same token, in one call', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    const done = await complete(first, fence, { emptied: '{"emptied":true}' });

    expect(done.finished).toBe('recorded');
    const next = jobs.finished(first, done.jobReply);
    expect(next && { id: next.id, token: next.token, data: JSON.parse(next.data) }).toEqual({
      id: 'evt_2',
      token: 'w:1',
      data: { n: 2 },
    });
    expect(await ctx.redis.get(layout.jobLock('evt_2'))).toBe('w:1');
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1:done');
    expect(await outboxLength()).toBe(1);
    expect(await counts()).toEqual({ completed: 1, failed: 0, waiting: 0, active: 1 });
    expect(await jobField('evt_1', 'returnvalue')).toBe('"delivered"');
    // The job keeps ids and outcome only: its data was emptied with the outcome.
    expect(await jobField('evt_1', 'data')).toBe('{"emptied":true}');
  });

  it('marks the hook for the history writer in the same call, an earlier mark kept (one Redis)', async () => {
    const marked = () => ctx.redis.zscore(keys.historyDirty(), hook.id);
    const first = await take('w:1');
    const before = Date.now();
    const done = await complete(first, await begun(first));

    expect(done.historyMarked).toBe(true);
    const at = Number(await marked());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    // A mark from before (records waiting longer) is kept: the writer's lag counts from it.
    await ctx.redis.zadd(keys.historyDirty(), 1000, hook.id);
    const second = jobs.finished(first, done.jobReply)!;
    await complete(second, { jobId: second.id, token: second.token });
    expect(await marked()).toBe('1000');
  });

  it('marks nothing for the writer when it records nothing (the lock is another holder’s)', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    await ctx.redis.set(layout.jobLock(first.id), 'w:2');

    expect(await complete(first, fence)).toEqual({ finished: 'fenced' });
    expect(await ctx.redis.zscore(keys.historyDirty(), hook.id)).toBeNull();
  });

  it('a failed outcome fails the job with its reason; none taken next when not asked', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    const done = await complete(first, fence, {
      end: { kind: 'failed', reason: 'failed 500' },
      fetchNext: false,
      attempt: { ...record('evt_1'), outcome: 'failed', status_code: 500 },
      step: 'failure',
    });

    expect(jobs.finished(first, done.jobReply)).toBeUndefined();
    expect(await counts()).toEqual({ completed: 0, failed: 1, waiting: 1, active: 0 });
    expect(await jobField('evt_1', 'failedReason')).toBe('failed 500');
  });

  it('the same call sent again (its reply lost) answers `again` and writes nothing twice', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    // The same arguments (the same time) each time, as a resend sends them.
    const completion = jobs.prepareFinish(first, DELIVERED, true);
    const call = () => complete(first, fence, { completion });
    await call();

    expect(await call()).toEqual({ finished: 'recorded', again: true });
    expect(await outboxLength()).toBe(1);
    expect(await counts()).toEqual({ completed: 1, failed: 0, waiting: 0, active: 1 });
    // The next job stays this token's: the holder finds it by taking under the same token.
    expect((await jobs.take(hook.id, 'w:1')).kind).toBe('job');
  });

  it("marks the next job's attempt in the same call when asked, as `begin` would", async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    // The hook changes while the first request is out: the next attempt goes to the new address.
    await store.hooks.update(hook.account_id, hook.id, { url: 'https://example.com/moved' }, 'test');
    const done = await complete(first, fence, { markNext: true });

    expect(done.next?.jobId).toBe('evt_2');
    const start = done.next?.start;
    expect(start?.kind).toBe('send');
    if (start?.kind !== 'send') return;
    expect(start.target.url).toBe('https://example.com/moved');
    // The lock BullMQ gave the next job, minus the time since: the stall check counts from the call.
    expect(start.lockMsLeft).toBeGreaterThan(25_000);
    expect(start.lockMsLeft).toBeLessThanOrEqual(30_000);
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_2 w:1');
    expect(await outboxLength()).toBe(1);
    expect(await counts()).toEqual({ completed: 1, failed: 0, waiting: 0, active: 1 });
    // Its outcome is recorded as any begun attempt's.
    const second = jobs.finished(first, done.jobReply)!;
    const last = await complete(second, { jobId: 'evt_2', token: 'w:1' }, { markNext: true });
    expect(last).toMatchObject({ finished: 'recorded' });
    expect(last.next).toBeUndefined();
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_2:done');
  });

  it('leaves the next job unmarked while an erasure runs on the hook (its tags are needed)', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    await ctx.redis.sadd(keys.hookErasing(hook.id), 'some-tag');
    const done = await complete(first, fence, { markNext: true });

    expect(done.next).toBeUndefined();
    expect(jobs.finished(first, done.jobReply)?.id).toBe('evt_2');
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1:done');
  });

  it('sent again after marking the next job (its reply lost), answers `again`; the next is begun by its token', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    const completion = jobs.prepareFinish(first, DELIVERED, true);
    await complete(first, fence, { completion, markNext: true });

    expect(await complete(first, fence, { completion, markNext: true })).toEqual({
      finished: 'recorded',
      again: true,
    });
    expect(await outboxLength()).toBe(1);
    // The holder takes the next job by its token and begins it: the same holder asking again is told to send.
    const next = await take('w:1');
    expect(next.id).toBe('evt_2');
    expect((await store.attempts.begin(hook.id, next.id, { jobId: next.id, token: 'w:1' })).kind).toBe(
      'send',
    );
  });

  describe("the hook's lease, given back by the same call when the queue ran empty (one Redis)", () => {
    const lease = async () => ({
      until: await ctx.redis.zscore(keys.hookLeases(), hook.id),
      holder: await ctx.redis.hget(keys.hookLeaseHolders(), hook.id),
    });
    const leaseTo = async (holder: string) => {
      await ctx.redis.zadd(keys.hookLeases(), Date.now() + 10_000, hook.id);
      await ctx.redis.hset(keys.hookLeaseHolders(), hook.id, holder);
    };
    /** Completes evt_1 then evt_2 (the next, taken by the first call), asking to give `holder`'s lease back. */
    async function drainAsking(holder: string, markNext = true) {
      const first = await take('w:1');
      const asked = (job: ActiveJob) => ({ ...jobs.prepareFinish(job, DELIVERED, true), releaseFor: holder });
      const done = await complete(first, await begun(first), { completion: asked(first), markNext });
      const second = jobs.finished(first, done.jobReply)!;
      const last = await complete(
        second,
        { jobId: second.id, token: 'w:1' },
        { completion: asked(second), markNext },
      );
      return { done, last, second };
    }

    it('gives it back with the outcome that finds nothing next, and keeps it while a job was taken', async () => {
      await leaseTo('holder-a');
      const { done, last, second } = await drainAsking('holder-a');

      // The first call took evt_2: the hook is still being delivered to, its lease kept.
      expect(second.id).toBe('evt_2');
      expect(done.leaseReleased).toBeUndefined();
      expect(last).toMatchObject({ finished: 'recorded', leaseReleased: true });
      expect(await lease()).toEqual({ until: null, holder: null });
      expect(await counts()).toEqual({ completed: 2, failed: 0, waiting: 0, active: 0 });
      // Nobody signalled it while leased: it is not put back for a worker.
      expect(await ctx.redis.zscore(keys.readyHooks(), hook.id)).toBeNull();
    });

    it('puts a hook signalled while leased back into the ready set, as a release does', async () => {
      await leaseTo('holder-a');
      await ctx.redis.sadd(keys.signalledWhileLeased(), hook.id);
      const { last } = await drainAsking('holder-a');

      expect(last.leaseReleased).toBe(true);
      expect(await ctx.redis.zscore(keys.readyHooks(), hook.id)).not.toBeNull();
      expect(await ctx.redis.sismember(keys.signalledWhileLeased(), hook.id)).toBe(0);
    });

    it("leaves a lease that is another holder's, and says so", async () => {
      await leaseTo('holder-b');
      const { last } = await drainAsking('holder-a');

      expect(last.finished).toBe('recorded');
      expect(last.leaseReleased).toBeUndefined();
      expect(await lease()).toMatchObject({ holder: 'holder-b' });
    });

    it('leaves it when the outcome is announced after the script (no next mark asked): the consumer releases it then', async () => {
      await leaseTo('holder-a');
      const { last } = await drainAsking('holder-a', false);

      expect(last.leaseReleased).toBeUndefined();
      expect(await lease()).toMatchObject({ holder: 'holder-a' });
    });

    it('a fenced call gives nothing back', async () => {
      await leaseTo('holder-a');
      const first = await take('w:1');
      const fence = await begun(first);
      await ctx.redis.set(layout.jobLock(first.id), 'w:2');
      const completion = { ...jobs.prepareFinish(first, DELIVERED, true), releaseFor: 'holder-a' };

      expect(await complete(first, fence, { completion, markNext: true })).toEqual({ finished: 'fenced' });
      expect(await lease()).toMatchObject({ holder: 'holder-a' });
    });
  });

  it("a holder whose lock is now another's writes nothing: no record, the job still active", async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    await ctx.redis.set(layout.jobLock(first.id), 'w:2');
    const done = await complete(first, fence);

    expect(done).toEqual({ finished: 'fenced' });
    expect(await outboxLength()).toBe(0);
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1 w:1');
    expect(await counts()).toEqual({ completed: 0, failed: 0, waiting: 1, active: 1 });
  });

  it("an attempt key that is another event's is left alone, and the job still completes, as before", async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    await ctx.redis.set(keys.hookAttempt(hook.id), 'evt_9 w:9');
    const done = await complete(first, fence, { fetchNext: false });

    expect(done.finished).toBe('not_this_attempt');
    expect(jobs.finished(first, done.jobReply)).toBeUndefined();
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_9 w:9');
    expect(await outboxLength()).toBe(0);
    expect(await counts()).toEqual({ completed: 1, failed: 0, waiting: 1, active: 0 });
  });

  it('another holder that took the job over and finished it is not mistaken for this call', async () => {
    const first = await take('w:1');
    const fence = await begun(first);
    // The lock expired and another holder recorded the attempt `unknown` and failed the job.
    await ctx.redis.del(layout.jobLock(first.id));
    const takeover = await take('w:2');
    await complete(
      takeover,
      { jobId: takeover.id, token: 'w:2' },
      {
        end: { kind: 'failed', reason: 'unknown: worker stopped mid-attempt' },
        fetchNext: false,
        attempt: { ...record('evt_1'), outcome: 'unknown' },
        step: undefined,
      },
    );

    expect(await complete(first, fence)).toEqual({ finished: 'fenced' });
    expect(await outboxLength()).toBe(1);
  });
});
