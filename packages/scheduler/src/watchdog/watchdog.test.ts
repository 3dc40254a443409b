import { Queue } from 'bullmq';
import { EVENTS_MAX_LEN, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { figuresFromHash } from './fleet-figures';
import { ReadySet } from '../ready-set';
import { testWatchdogDeps } from '../test-support/watchdog-deps';
import { WorkerRoster } from '../worker-roster';
import { Watchdog, type StuckReport, type WatchdogDeps } from './watchdog';

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

  const watchdogDeps = (holder = 'monitor-a'): WatchdogDeps =>
    testWatchdogDeps(ctx.redis, keys, () => new Date(now), {
      holder,
      stuckAfterMs: AFTER,
      onReport: async (report) => void reports.push(report),
      onRecovered: (hookId) => void recovered.push(hookId),
    });
  const watchdog = (holder = 'monitor-a') => new Watchdog(watchdogDeps(holder));

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
  /** A worker process beating now (alive, whatever its slots are busy with). */
  const workerBeats = (name = 'worker-1') =>
    new WorkerRoster(ctx.redis, keys, () => new Date(now)).beat(name);

  it('wakes a hook that has had events and no worker for the stuck-after time, and no other', async () => {
    await hookWithEvents('hk_lost', 2);
    await hookWithEvents('hk_ready', 1);
    await ready.signal(['hk_ready']);
    await hookWithEvents('hk_leased', 1);
    await ready.claim(['hk_leased'], 1, 60_000, 'worker-1');
    await hookWithEvents('hk_suspended', 3);
    await hookQueues.pause('hk_suspended');
    await hookWithEvents('hk_quiet', 0);

    // Workers are alive throughout, every slot busy: a hook in the ready set waits its turn.
    const dog = watchdog();
    const tick = async () => {
      await workerBeats();
      await dog.tick();
    };
    await tick();
    now += AFTER - 1;
    await tick();
    expect(await signalled('hk_lost')).toBe(false);
    now += 1;
    await tick();
    expect(await signalled('hk_lost')).toBe(true);
    expect(await ctx.redis.zcard(keys.readyHooks())).toBe(2); // hk_lost and hk_ready, nothing else
    // Woken, it waits in the ready set for a worker, however long, as hk_ready does: not stuck.
    for (let i = 0; i < 3; i++) {
      now += AFTER;
      await tick();
    }
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

  it('reports a hook waiting in the ready set when no worker is alive, and sees it recover once one serves it', async () => {
    await hookWithEvents('hk_waiting', 2);
    await ready.signal(['hk_waiting']);
    await workerBeats('worker-killed'); // on the roster, silent since (killed without leaving)
    now += AFTER;
    const woken: string[] = [];
    const dog = new Watchdog({ ...watchdogDeps(), onWake: (ids) => void woken.push(...ids) });
    await dog.tick();
    now += AFTER;
    await dog.tick();
    expect(woken).toEqual(['hk_waiting']);
    now += AFTER - 1;
    await dog.tick();
    expect(reports).toEqual([]);
    now += 1;
    await dog.tick();
    expect(reports).toEqual([
      { hookId: 'hk_waiting', since: now - 2 * AFTER, backlog: expect.objectContaining({ waiting: 2 }) },
    ]);
    expect(await ctx.redis.zrange(keys.stuckHooks(), 0, -1)).toEqual(['hk_waiting']);

    // A worker starts: waiting in the ready set for it is no recovery yet; its lease on the hook is.
    now += AFTER;
    await workerBeats('worker-2');
    await dog.tick();
    expect(recovered).toEqual([]);
    expect(reports).toHaveLength(1);
    await ready.claim([], 1, 60_000, 'worker-2');
    await dog.tick();
    expect(recovered).toEqual(['hk_waiting']);
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
