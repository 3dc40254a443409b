import type { HookView } from '@hookline/core';
import type { HookJobs, hookQueueLayout, PreparedClaim, RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { Store } from './create-store';
import { hookWithJobs } from './test-support/hook-with-jobs';

// On one Redis, a worker claims the hook it popped from the ready set, and takes and begins that hook's next
// job, in one script (attempt-claim-take.lua): the claim as ready-claim.lua makes it, the take as
// attempt-take.lua. What the leases, the queue and the attempt key hold after it.
describe('hooks claimed with the popped one’s next job taken and begun', () => {
  const ctx = useRedis('store-claim-take');
  let store: Store;
  let hook: HookView;
  let jobs: HookJobs;
  let layout: ReturnType<typeof hookQueueLayout>;
  let keys: RedisKeys;

  beforeEach(async () => {
    ({ store, keys, hook, jobs, layout } = await hookWithJobs(ctx));
  });

  const claimOf = (popped: string, want: number, holder = 'w'): PreparedClaim => {
    const now = Date.now();
    return {
      hookId: popped,
      keys: [keys.readyHooks(), keys.hookLeases(), keys.hookLeaseHolders(), keys.signalledWhileLeased()],
      args: [now, now + 60_000, want, holder],
    };
  };
  const holderOf = (hookId: string) => ctx.redis.hget(keys.hookLeaseHolders(), hookId);

  it('leases the popped hook and more from the ready set, and takes and marks the popped hook’s job', async () => {
    await ctx.redis.zadd(keys.readyHooks(), 1, 'hk_other', 2, 'hk_third');
    const take = jobs.prepareTake(hook.id, 'w:1');
    const { claimed, took } = await store.attempts.claimAndTake(claimOf(hook.id, 2), take);

    expect(claimed).toEqual([hook.id, 'hk_other']);
    expect(await holderOf(hook.id)).toBe('w');
    expect(await holderOf('hk_other')).toBe('w');
    expect(await ctx.redis.zrange(keys.readyHooks(), 0, -1)).toEqual(['hk_third']);
    const offer = await jobs.taken(take, took?.jobReply);
    expect(offer.kind === 'job' && { id: offer.job.id, token: offer.job.token }).toEqual({
      id: 'evt_1',
      token: 'w:1',
    });
    expect(took?.begun?.jobId).toBe('evt_1');
    expect(took?.begun?.start.kind).toBe('send');
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBe('evt_1 w:1');
    expect(await ctx.redis.get(layout.jobLock('evt_1'))).toBe('w:1');
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_2']);
  });

  it('claims a hook signalled again after it was popped once: its job is handed to one holding only', async () => {
    // Popped, then signalled again by the next publish before the claim ran: back in the ready set.
    await ctx.redis.zadd(keys.readyHooks(), 1, hook.id);
    const take = jobs.prepareTake(hook.id, 'w:1');
    const { claimed, took } = await store.attempts.claimAndTake(claimOf(hook.id, 5), take);

    expect(claimed).toEqual([hook.id]);
    expect(await ctx.redis.zcard(keys.readyHooks())).toBe(0);
    expect(took?.begun?.jobId).toBe('evt_1');
  });

  it('takes nothing when the popped hook is another holder’s (a live lease): its signal is kept', async () => {
    await ctx.redis.zadd(keys.hookLeases(), Date.now() + 60_000, hook.id);
    await ctx.redis.hset(keys.hookLeaseHolders(), hook.id, 'other');
    const { claimed, took } = await store.attempts.claimAndTake(
      claimOf(hook.id, 1),
      jobs.prepareTake(hook.id, 'w:1'),
    );

    expect(claimed).toEqual([]);
    expect(took).toBeUndefined();
    expect(await ctx.redis.sismember(keys.signalledWhileLeased(), hook.id)).toBe(1);
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_2', 'evt_1']);
    expect(await ctx.redis.get(keys.hookAttempt(hook.id))).toBeNull();
  });

  it('sent again after its reply was lost: the same lease, no second job; the job is found by its token', async () => {
    const claim = claimOf(hook.id, 1);
    const take = jobs.prepareTake(hook.id, 'w:1');
    await store.attempts.claimAndTake(claim, take);
    const again = await store.attempts.claimAndTake(claim, take);

    expect(again.claimed).toEqual([hook.id]);
    expect(again.took?.begun).toBeUndefined();
    const offer = await jobs.taken(take, again.took?.jobReply);
    expect(offer.kind === 'job' && offer.job.id).toBe('evt_1');
    expect(await ctx.redis.lrange(layout.active, 0, -1)).toEqual(['evt_1']);
    // The same holder asking again is told to send.
    expect((await store.attempts.begin(hook.id, 'evt_1', { jobId: 'evt_1', token: 'w:1' })).kind).toBe(
      'send',
    );
  });
});
