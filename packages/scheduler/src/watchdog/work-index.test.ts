import { Queue } from 'bullmq';
import { EVENTS_MAX_LEN, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { ReadySet } from '../ready-set';
import { testWatchdogDeps } from '../test-support/watchdog-deps';
import { Watchdog } from './watchdog';
import { WorkIndex } from './work-index';

const AFTER = 60_000;

describe('the index of hooks with work', () => {
  const ctx = useRedis('work-index');
  let keys: RedisKeys;
  let hookQueues: HookQueues;
  let ready: ReadySet;
  let index: WorkIndex;
  let now: number;

  beforeEach(() => {
    keys = redisKeys(ctx.prefix);
    hookQueues = new HookQueues(ctx.redis, keys);
    ready = new ReadySet(ctx.redis, keys);
    index = new WorkIndex(ctx.redis, keys);
    now = Date.now();
  });

  const watchdog = () =>
    new Watchdog(
      testWatchdogDeps(ctx.redis, keys, () => new Date(now), {
        stuckAfterMs: AFTER,
        onReport: async () => undefined,
      }),
    );

  const indexed = async () => (await ctx.redis.zrange(keys.hooksWithWork(), 0, -1)).sort();
  const signalled = async (hookId: string) => (await ctx.redis.zscore(keys.readyHooks(), hookId)) !== null;

  async function hook(hookId: string): Promise<void> {
    await ctx.redis.sadd(keys.allHooks(), hookId);
    await hookQueues.setUp(hookId);
  }

  const queueOf = (hookId: string) =>
    new Queue(keys.hookQueueName(hookId), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });

  async function addEvents(hookId: string, events: number): Promise<void> {
    const queue = queueOf(hookId);
    for (let i = 0; i < events; i++) await queue.add('deliver.v1', { i });
    await queue.close();
  }

  /** The hook's waiting jobs gone, as once they are delivered. */
  async function clearJobs(hookId: string): Promise<void> {
    const queue = queueOf(hookId);
    await queue.drain();
    await queue.close();
  }

  it('holds a hook from its signal until the watchdog finds it without jobs and without history', async () => {
    for (const id of ['hk_a', 'hk_b', 'hk_idle']) await hook(id);
    const dog = watchdog();
    await dog.tick(); // the walk over every hook: nothing has work
    expect(await indexed()).toEqual([]);

    await addEvents('hk_a', 2);
    await ready.signal(['hk_a']);
    await addEvents('hk_b', 1);
    await ready.signal(['hk_b']);
    expect(await indexed()).toEqual(['hk_a', 'hk_b']);
    await dog.tick();
    expect(await indexed()).toEqual(['hk_a', 'hk_b']);

    // hk_b's event went out: its job is gone, and its record waits in its outbox.
    await clearJobs('hk_b');
    await ctx.redis.rpush(keys.hookHistoryOutbox('hk_b'), '{}');
    await dog.tick();
    expect(await indexed()).toEqual(['hk_a', 'hk_b']);
    await ctx.redis.del(keys.hookHistoryOutbox('hk_b'));
    await dog.tick();
    expect(await indexed()).toEqual(['hk_a']);
  });

  it('keeps a hook signalled again after its version was read (new jobs during the look)', async () => {
    await hook('hk_a');
    await ready.signal(['hk_a']);
    const { hooks } = await index.next(100);
    expect(hooks.map((h) => h.hookId)).toEqual(['hk_a']);
    // A producer adds a job and signals in the same millisecond as the first signal: the version still rises.
    await addEvents('hk_a', 1);
    await ready.signal(['hk_a']);
    expect(await index.forget(hooks)).toBe(0);
    expect(await indexed()).toEqual(['hk_a']);
    const again = await index.next(100);
    expect(await index.forget(again.hooks)).toBe(1);
    expect(await indexed()).toEqual([]);
  });

  it('wakes a hook whose signal was lost after the walk (a worker killed between popping and leasing it)', async () => {
    await hook('hk_lost');
    const dog = watchdog();
    await dog.tick();
    await addEvents('hk_lost', 1);
    await ready.signal(['hk_lost']);
    // The worker popped it from the ready set (BZPOPMIN) and died before its claim.
    expect(await ready.waitForOne(ctx.redis, 1)).toBe('hk_lost');
    await dog.tick();
    now += AFTER;
    await dog.tick();
    expect(await signalled('hk_lost')).toBe(true);
  });

  it('puts back the history marker of a hook in the index whose worker died before marking it', async () => {
    await hook('hk_a');
    const dog = watchdog();
    await dog.tick();
    // The job's outcome script appended the record and the job finished; the marker, a moment later, was lost.
    await ready.signal(['hk_a']);
    await ctx.redis.rpush(keys.hookHistoryOutbox('hk_a'), '{"attempt_id":"at_1"}');
    expect(await ctx.redis.zscore(keys.historyDirty(), 'hk_a')).toBeNull();
    await dog.tick();
    expect(await ctx.redis.zscore(keys.historyDirty(), 'hk_a')).not.toBeNull();
  });

  it('is rebuilt by a monitor taking the watchdog over: hooks with jobs or records that it lacks join it', async () => {
    for (const id of ['hk_jobs', 'hk_records', 'hk_idle']) await hook(id);
    // Work from before the index existed (an upgrade), or keys changed by hand: nothing signalled.
    await addEvents('hk_jobs', 1);
    await ctx.redis.zrem(keys.readyHooks(), 'hk_jobs');
    await ctx.redis.rpush(keys.hookHistoryOutbox('hk_records'), '{}');
    await ctx.redis.del(keys.hooksWithWork());
    await watchdog().tick();
    expect(await indexed()).toEqual(['hk_jobs', 'hk_records']);
    expect(await ctx.redis.zscore(keys.historyDirty(), 'hk_records')).not.toBeNull();
  });
});
