import { Queue } from 'bullmq';
import { EVENTS_MAX_LEN, HistoryOutbox, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { figuresFromHash } from './fleet-figures';
import { ReadySet } from '../ready-set';
import { Watchdog, type StuckReport } from './watchdog';

const AFTER = 60_000;

describe('the watchdog', () => {
  const ctx = useRedis('watchdog');
  let keys: RedisKeys;
  let hookQueues: HookQueues;
  let ready: ReadySet;
  let now: number;
  let reports: StuckReport[];
  let recovered: string[];

  beforeEach(() => {
    keys = redisKeys(ctx.prefix);
    hookQueues = new HookQueues(ctx.redis, keys);
    ready = new ReadySet(ctx.redis, keys);
    now = Date.now();
    reports = [];
    recovered = [];
  });

  const watchdog = (holder = 'monitor-a') =>
    new Watchdog({
      redis: ctx.redis,
      keys,
      ready,
      hookQueues,
      outbox: new HistoryOutbox(ctx.redis, keys),
      holder,
      stuckAfterMs: AFTER,
      tickMs: 1000,
      clock: () => new Date(now),
      onReport: async (report) => void reports.push(report),
      onRecovered: (hookId) => void recovered.push(hookId),
    });

  /** A hook (in the index of every hook) with `events` waiting in its queue, and no ready signal. */
  async function hookWithEvents(hookId: string, events: number): Promise<void> {
    await ctx.redis.sadd(keys.allHooks(), hookId);
    await hookQueues.setUp(hookId);
    const queue = new Queue(keys.hookQueueName(hookId), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    for (let i = 0; i < events; i++) await queue.add('deliver.v1', { i });
    await queue.close();
    await ctx.redis.zrem(keys.readyHooks(), hookId);
  }

  const signalled = async (hookId: string) => (await ctx.redis.zscore(keys.readyHooks(), hookId)) !== null;

  it('wakes a hook that has had events and no worker for the stuck-after time, and no other', async () => {
    await hookWithEvents('hk_lost', 2);
    await hookWithEvents('hk_ready', 1);
    await ready.signal(['hk_ready']);
    await hookWithEvents('hk_leased', 1);
    await ready.claim(['hk_leased'], 1, 60_000, 'worker-1');
    await hookWithEvents('hk_suspended', 3);
    await hookQueues.pause('hk_suspended');
    await hookWithEvents('hk_quiet', 0);

    const dog = watchdog();
    await dog.tick();
    now += AFTER - 1;
    await dog.tick();
    expect(await signalled('hk_lost')).toBe(false);
    now += 1;
    await dog.tick();
    expect(await signalled('hk_lost')).toBe(true);
    expect(await ctx.redis.zcard(keys.readyHooks())).toBe(2); // hk_lost and hk_ready, nothing else
    // Woken, it waits in the ready set for a worker, however long: not stuck (with no worker running at
    // all, that is the workers-missing alert's business).
    now += 3 * AFTER;
    await dog.tick();
    expect(reports).toEqual([]);
    expect(await ready.status(['hk_lost', 'hk_leased', 'hk_quiet'])).toEqual(['signalled', 'leased', 'none']);
  });

  it('reports a hook still stuck after its wake-up once, whichever of several monitors runs, and sees it recover', async () => {
    await hookWithEvents('hk_lost', 1);
    const [a, b] = [watchdog('monitor-a'), watchdog('monitor-b')];
    const tickBoth = async () => [await a.tick(), await b.tick()];
    expect(await tickBoth()).toEqual([true, false]); // one runs the watchdog, the other stands by
    now += AFTER;
    await tickBoth();
    await ctx.redis.zrem(keys.readyHooks(), 'hk_lost'); // the wake-up is lost too
    now += AFTER;
    await tickBoth();
    expect(reports.map((r) => r.hookId)).toEqual(['hk_lost']);
    expect(reports[0]).toMatchObject({ since: now - 2 * AFTER, backlog: { waiting: 1, paused: false } });
    expect(await ctx.redis.zrange(keys.stuckHooks(), 0, -1)).toEqual(['hk_lost']);

    // The monitor running the watchdog stops; the other takes over, follows the reported hook, and
    // reports nothing twice.
    await a.release();
    await ctx.redis.zrem(keys.readyHooks(), 'hk_lost');
    now += 2 * AFTER;
    expect(await b.tick()).toBe(true);
    now += AFTER;
    await b.tick();
    expect(reports).toHaveLength(1);
    expect(await signalled('hk_lost')).toBe(true); // woken again

    // A worker takes it: recovered, out of the report index.
    await ready.claim([], 1, 60_000, 'worker-1');
    await b.tick();
    expect(recovered).toEqual(['hk_lost']);
    expect(await ctx.redis.zcard(keys.stuckHooks())).toBe(0);
  });

  it('gathers the events waiting and the hooks with the oldest, for every monitor to export', async () => {
    await hookWithEvents('hk_a', 2);
    await hookWithEvents('hk_b', 3);
    await hookWithEvents('hk_held', 5);
    await hookQueues.pause('hk_held');
    await watchdog().tick();
    const figures = figuresFromHash(await ctx.redis.hgetall(keys.fleetFigures()));
    expect(figures?.waiting).toBe(5);
    expect(figures?.oldest.map((w) => w.hookId)).toEqual(['hk_a', 'hk_b']);
    expect(figures!.oldest[0]!.since).toBeLessThanOrEqual(figures!.oldest[1]!.since);
  });
});
