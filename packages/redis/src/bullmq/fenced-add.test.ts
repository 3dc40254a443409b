import { join } from 'node:path';
import { useRedis } from '@hookline/testing';
import { ADD_STANDARD_JOB, loadFencedAdd, StaleFanOutError } from './fenced-add';
import { HookJobAdder, type NewJobOptions } from './hook-job-adder';
import { HookQueues } from './hook-queues';
import { hookQueueLayout } from './layout';
import { redisKeys, type RedisKeys } from '../keys';

const options = (jobId: string): NewJobOptions => ({
  jobId,
  deduplication: { id: jobId, ttl: 3_600_000 },
  attempts: 1,
  removeOnComplete: 20,
  removeOnFail: 50,
});

// The fenced add is BullMQ's addStandardJob with a prologue in front: it relies on the script's keys (nine, in
// the order BullMQ's backend sends them), its three ARGV (the fence's two come after), and on nothing in it
// reading ARGV beyond its own. A BullMQ upgrade that changes any of these fails here.
describe("the fenced add over BullMQ's addStandardJob", () => {
  const ctx = useRedis('fenced-add');
  let keys: RedisKeys;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    await new HookQueues(ctx.redis, keys).setUp('hk_fence');
  });

  it("keeps BullMQ's script whole, behind a prologue, with the keys and arguments the fence assumes", () => {
    const { content, keys: count } = ADD_STANDARD_JOB;
    expect(count).toBe(9);
    const header = ['wait', 'paused', 'meta', 'id', 'completed', 'delayed', 'active', 'events', 'marker'];
    header.forEach((name, i) => expect(content).toMatch(new RegExp(`KEYS\\[${i + 1}\\] .*${name}`)));
    expect(content).toMatch(/ARGV\[3\] msgpacked options/);
    // Only ARGV[1..3] are BullMQ's: an upgrade reading more (or counting them) would collide with the fence.
    expect([...content.matchAll(/ARGV\[(\d+)\]/g)].map((m) => Number(m[1])).every((n) => n <= 3)).toBe(true);
    expect(content).not.toMatch(/#ARGV/);
    // Only KEYS[1..9] are BullMQ's: the scheduler's come after.
    expect([...content.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1])).every((n) => n <= 9)).toBe(true);
    expect(content).not.toMatch(/#KEYS/);
    const fenced = loadFencedAdd(join(__dirname, 'scripts'));
    const [before, after] = fenced.source.split(content);
    expect(after).toBeDefined();
    expect(before).toMatch(/^-- KEYS[\s\S]*\ndo\n[\s\S]*\nend\n[\s\S]*\nlocal function bullmqAdd\(\)\n$/);
    expect(after).toMatch(/^\nend\nlocal added = bullmqAdd\(\)\n/);
  });

  it('adds as BullMQ does with a fresh read time, and refuses a stale one without writing anything', async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    const layout = hookQueueLayout(keys, 'hk_fence');
    const [seconds, micros] = await ctx.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const data = { n: 1 };

    const before = await ctx.redis.keys(`${ctx.prefix}*`);
    await expect(
      adder.add('hk_fence', 'deliver.v1', data, options('evt_old'), {
        readAt: now - 31_000,
        staleMs: 30_000,
      }),
    ).rejects.toBeInstanceOf(StaleFanOutError);
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual([]);
    // The meta write of a queue's first add aside, nothing: no job, no deduplication key, no event.
    expect((await ctx.redis.keys(`${ctx.prefix}*`)).sort()).toEqual(before.sort());
    expect(await ctx.redis.exists(layout.deduplication('evt_old'))).toBe(0);

    const added = await adder.add('hk_fence', 'deliver.v1', data, options('evt_new'), {
      readAt: now - 29_000,
      staleMs: 30_000,
    });
    expect(added).toEqual({ id: 'evt_new', paused: false });
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_new']);
    expect(await ctx.redis.get(layout.deduplication('evt_new'))).toBe('evt_new');
    expect(await ctx.redis.pttl(layout.deduplication('evt_new'))).toBeGreaterThan(3_500_000);
  });

  it('signals the hook in the same script when asked, as the ready set does, and never for a stale add', async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    const layout = hookQueueLayout(keys, 'hk_fence');
    const [seconds, micros] = await ctx.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const fence = (readAt: number) => ({ readAt, staleMs: 30_000, signal: true });

    await expect(
      adder.add('hk_fence', 'deliver.v1', {}, options('evt_old'), fence(now - 31_000)),
    ).rejects.toBeInstanceOf(StaleFanOutError);
    expect(await ctx.redis.zscore(keys.readyHooks(), 'hk_fence')).toBeNull();
    expect(await ctx.redis.zscore(keys.hooksWithWork(), 'hk_fence')).toBeNull();

    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_1'), fence(now))).toEqual({
      id: 'evt_1',
      paused: false,
    });
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_1']);
    expect(await ctx.redis.zscore(keys.readyHooks(), 'hk_fence')).not.toBeNull();
    const version = Number(await ctx.redis.zscore(keys.hooksWithWork(), 'hk_fence'));

    // Leased: remembered against the lease instead; and the index's version moves on, as every signal's does.
    await ctx.redis.zrem(keys.readyHooks(), 'hk_fence');
    await ctx.redis.zadd(keys.hookLeases(), Date.now() + 60_000, 'hk_fence');
    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_2'), fence(now))).toEqual({
      id: 'evt_2',
      paused: false,
    });
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_2', 'evt_1']);
    expect(await ctx.redis.zscore(keys.readyHooks(), 'hk_fence')).toBeNull();
    expect(await ctx.redis.sismember(keys.signalledWhileLeased(), 'hk_fence')).toBe(1);
    expect(Number(await ctx.redis.zscore(keys.hooksWithWork(), 'hk_fence'))).toBeGreaterThan(version);

    // A repeat of an add (recovery's) finds the job and signals again: the hook may have been given back since.
    await ctx.redis.del(keys.hookLeases(), keys.signalledWhileLeased());
    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_2'), fence(now))).toEqual({
      id: 'evt_2',
      paused: false,
    });
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_2', 'evt_1']);
    expect(await ctx.redis.zscore(keys.readyHooks(), 'hk_fence')).not.toBeNull();
  });

  it("answers whether the hook's queue is paused, read where the job went in", async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    const queues = new HookQueues(ctx.redis, keys);
    const [seconds] = await ctx.redis.time();
    const fence = { readAt: Number(seconds) * 1000, staleMs: 30_000 };
    await queues.pause('hk_fence');
    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_1'), fence)).toEqual({
      id: 'evt_1',
      paused: true,
    });
    expect(await queues.waitingCount('hk_fence')).toBe(1);
    await queues.resume('hk_fence');
    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_2'), fence)).toEqual({
      id: 'evt_2',
      paused: false,
    });
    // Without a fence (BullMQ's own script, unchanged) nothing is read beside the id.
    expect(await adder.add('hk_fence', 'deliver.v1', {}, options('evt_3'))).toEqual({ id: 'evt_3' });
  });

  it('shortens a deduplication key that has longer to live, and never lengthens or creates one', async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    const layout = hookQueueLayout(keys, 'hk_fence');
    await adder.add('hk_fence', 'deliver.v1', {}, options('evt_1'));
    await adder.shortenDeduplication('hk_fence', 'evt_1', 55_000);
    expect(await ctx.redis.pttl(layout.deduplication('evt_1'))).toBeLessThanOrEqual(55_000);
    await ctx.redis.pexpire(layout.deduplication('evt_1'), 5_000);
    await adder.shortenDeduplication('hk_fence', 'evt_1', 55_000);
    expect(await ctx.redis.pttl(layout.deduplication('evt_1'))).toBeLessThanOrEqual(5_000);
    await adder.shortenDeduplication('hk_fence', 'evt_none', 55_000);
    expect(await ctx.redis.exists(layout.deduplication('evt_none'))).toBe(0);
  });
});
