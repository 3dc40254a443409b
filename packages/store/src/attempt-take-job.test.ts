import type { HookView } from '@hookline/core';
import type { HookJobs, HookQueues, hookQueueLayout, RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { Store } from './create-store';
import { hookWithJobs } from './test-support/hook-with-jobs';

// A holding's first job is taken with BullMQ's moveToActive as shipped and its attempt marked in the same
// script (attempt-take.lua): one round trip before a quiet hook's request. What the queue and the attempt key
// hold after it, against BullMQ's own take.
describe('a job taken with its attempt begun', () => {
  const ctx = useRedis('store-take-job');
  let store: Store;
  let hook: HookView;
  let jobs: HookJobs;
  let layout: ReturnType<typeof hookQueueLayout>;
  let keys: RedisKeys;
  let queues: HookQueues;

  beforeEach(async () => {
    ({ store, keys, hook, jobs, layout, queues } = await hookWithJobs(ctx));
  });

  const jobHash = (jobId: string) => ctx.redis.hgetall(layout.jobPrefix + jobId);

  it('takes the next job as BullMQ does, and marks its attempt as begin would', async () => {
    const take = jobs.prepareTake(hook.id, 'w:1');
    const { jobReply, begun } = await store.attempts.takeAndBegin(take);
    const offer = await jobs.taken(take, jobReply);

    expect(
      offer.kind === 'job' && { id: offer.job.id, token: offer.job.token, data: offer.job.data },
    ).toEqual({
      id: 'evt_1',
      token: 'w:1',
      data: '{"n":1}',
    });
    expect(begun?.jobId).toBe('evt_1');
    expect(begun?.start.kind).toBe('send');
    if (begun?.start.kind === 'send') {
      expect(begun.start.target.url).toBe('https://example.com/in');
      expect(begun.start.lockMsLeft).toBeGreaterThan(25_000);
    }
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1 w:1');
    expect(await ctx.redis.get(layout.jobLock('evt_1'))).toBe('w:1');
    expect(await ctx.redis.pttl(layout.jobLock('evt_1'))).toBeGreaterThan(25_000);
    expect(await ctx.redis.lrange(layout.active, 0, -1)).toEqual(['evt_1']);
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_2']);

    // BullMQ's own take of the second job (after the first's finish) writes the job's hash the same way (the
    // first's finish added its own fields).
    await jobs.finish(
      offer.kind === 'job' ? offer.job : (undefined as never),
      { kind: 'completed', value: 'x' },
      false,
    );
    const own = await jobs.take(hook.id, 'w:2');
    expect(own.kind).toBe('job');
    const [mine, bullmqs] = [await jobHash('evt_1'), await jobHash('evt_2')];
    expect(
      Object.keys(mine)
        .filter((f) => !['finishedOn', 'returnvalue', 'atm'].includes(f))
        .sort(),
    ).toEqual(Object.keys(bullmqs).sort());
    expect(mine.ats).toBe(bullmqs.ats);
  });

  it('marks nothing when there is no job to take (a paused hook), and answers as take does', async () => {
    await queues.pause(hook.id);
    const take = jobs.prepareTake(hook.id, 'w:1');
    const { jobReply, begun } = await store.attempts.takeAndBegin(take);

    expect(begun).toBeUndefined();
    expect(await jobs.taken(take, jobReply)).toEqual({ kind: 'none' });
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBeNull();
  });

  it('takes the job but leaves it unmarked while an erasure runs on the hook (its tags are needed)', async () => {
    await ctx.redis.sadd(keys.hookErasing(hook.id), 'some-tag');
    const take = jobs.prepareTake(hook.id, 'w:1');
    const { jobReply, begun } = await store.attempts.takeAndBegin(take);

    expect(begun).toBeUndefined();
    expect((await jobs.taken(take, jobReply)).kind).toBe('job');
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBeNull();
  });

  it('a take whose reply was lost: taken again by the same token, the job is begun as the same holder', async () => {
    const take = jobs.prepareTake(hook.id, 'w:1');
    await store.attempts.takeAndBegin(take);
    const again = await jobs.take(hook.id, 'w:1');

    expect(again.kind === 'job' && again.job.id).toBe('evt_1');
    const start = await store.attempts.begin(hook.id, 'evt_1', { jobId: 'evt_1', token: 'w:1' });
    expect(start.kind).toBe('send');
  });
});
