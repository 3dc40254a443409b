import { useRedis } from '@hookline/testing';
import { hookQueueLayout } from './layout';
import { HookJobAdder, type NewJobOptions } from './hook-job-adder';
import { EVENTS_MAX_LEN, HookQueues } from './hook-queues';
import { redisKeys, type RedisKeys } from '../keys';
import { LuaScript } from '../lua-script';
import { ADD_STANDARD_JOB } from './fenced-add';

const options = (jobId: string): NewJobOptions => ({
  jobId,
  deduplication: { id: jobId, ttl: 60_000 },
  attempts: 1,
  removeOnComplete: 20,
  removeOnFail: 50,
});
const data = { accountId: 'acct_1', event: { id: 'evt_1', fields: { rate: '0.0100', to: 'ü' } } };

describe('adding jobs without a Queue handle', () => {
  const ctx = useRedis('hook-job-adder');
  let keys: RedisKeys;
  let hookQueues: HookQueues;

  beforeEach(async () => {
    keys = redisKeys(ctx.prefix);
    hookQueues = new HookQueues(ctx.redis, keys);
    for (const hookId of ['hk_queue', 'hk_adder', 'hk_fenced', 'hk_prepared']) await hookQueues.setUp(hookId);
  });

  /** Everything Redis holds for the hook's queue, with the parts that differ by nature (time, queue) masked. */
  async function stored(hookId: string) {
    const layout = hookQueueLayout(keys, hookId);
    const job = await ctx.redis.hgetall(layout.jobPrefix + 'evt_1');
    const events = await ctx.redis.xrange(layout.events, '-', '+');
    return {
      job: { ...job, timestamp: job.timestamp ? 'set' : 'missing' },
      wait: await ctx.redis.lrange(layout.wait, 0, -1),
      dedupe: await ctx.redis.get(layout.deduplication('evt_1')),
      dedupeTtl: (await ctx.redis.pttl(layout.deduplication('evt_1'))) > 50_000,
      maxLenEvents: await ctx.redis.hget(layout.meta, 'opts.maxLenEvents'),
      events: events.map(([, fields]) => fields),
    };
  }

  it('stores a job exactly as Queue.add does: hash, wait list, deduplication key, events, meta', async () => {
    const queue = hookQueues.open('hk_queue');
    ctx.onCleanup(() => queue.close());
    await queue.add('deliver.v1', data, options('evt_1'));
    const adder = new HookJobAdder(ctx.redis, keys);
    await adder.add('hk_adder', 'deliver.v1', data, options('evt_1'));
    // The fan-out's fenced add (fenced-add.lua) too, with a fresh read time: BullMQ's script behind it.
    const [seconds] = await ctx.redis.time();
    await adder.add('hk_fenced', 'deliver.v1', data, options('evt_1'), {
      readAt: Number(seconds) * 1000,
      staleMs: 30_000,
    });

    // Prepared for a script of the caller's (the accept's): BullMQ's own script run with what prepare gives.
    const prepared = await adder.prepare('hk_prepared', 'deliver.v1', data, options('evt_1'));
    const reply = (await new LuaScript('add', ADD_STANDARD_JOB.content).run(ctx.redis, prepared.keys, [
      ...prepared.args,
    ])) as string;
    await expect(prepared.answered(reply)).resolves.toBe('evt_1');
    expect(prepared).toMatchObject({
      hookId: 'hk_prepared',
      deduplicationKey: hookQueueLayout(keys, 'hk_prepared').deduplication('evt_1'),
      metaKey: hookQueueLayout(keys, 'hk_prepared').meta,
    });

    const viaQueue = await stored('hk_queue');
    expect(viaQueue.job).toMatchObject({ name: 'deliver.v1', data: JSON.stringify(data), timestamp: 'set' });
    expect(viaQueue.wait).toEqual(['evt_1']);
    expect(await stored('hk_adder')).toEqual(viaQueue);
    expect(await stored('hk_fenced')).toEqual(viaQueue);
    expect(await stored('hk_prepared')).toEqual(viaQueue);
  });

  it('adds an event once: the same job id again is deduplicated, as with Queue.add', async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    await adder.add('hk_adder', 'deliver.v1', data, options('evt_1'));
    await adder.add('hk_adder', 'deliver.v1', { other: true }, options('evt_1'));
    const layout = hookQueueLayout(keys, 'hk_adder');
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual(['evt_1']);
    expect(await ctx.redis.hget(layout.jobPrefix + 'evt_1', 'data')).toBe(JSON.stringify(data));
  });

  it("writes the events-stream length into a queue's meta on its first add, shortening an older queue", async () => {
    const meta = hookQueueLayout(keys, 'hk_adder').meta;
    await ctx.redis.hset(meta, 'opts.maxLenEvents', 10_000);
    await new HookJobAdder(ctx.redis, keys).add('hk_adder', 'deliver.v1', data, options('evt_1'));
    expect(await ctx.redis.hget(meta, 'opts.maxLenEvents')).toBe(String(EVENTS_MAX_LEN));
  });

  it('sends no INFO and opens nothing: one add is the meta write and the add script', async () => {
    const adder = new HookJobAdder(ctx.redis, keys);
    await adder.add('hk_adder', 'deliver.v1', data, options('evt_0'));
    const sent: string[] = [];
    const original = ctx.redis.sendCommand.bind(ctx.redis);
    ctx.redis.sendCommand = ((command: { name: string }) => {
      sent.push(command.name);
      return original(command as Parameters<typeof original>[0]);
    }) as typeof ctx.redis.sendCommand;
    try {
      await adder.add('hk_queue', 'deliver.v1', data, options('evt_1'));
      await adder.add('hk_queue', 'deliver.v1', data, options('evt_2'));
    } finally {
      ctx.redis.sendCommand = original;
    }
    // The meta once per queue, then only BullMQ's add script (evalsha, or eval the first time).
    expect(sent[0]).toBe('hset');
    expect(sent.slice(1).every((name) => name === 'evalsha' || name === 'eval')).toBe(true);
    expect(sent.filter((name) => name !== 'hset')).toHaveLength(2);
  });
});
