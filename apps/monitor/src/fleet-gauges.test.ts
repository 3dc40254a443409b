import { createMetrics, fleetMetrics } from '@hookline/telemetry';
import { figuresToHash, ReadySet, WorkerRoster } from '@hookline/scheduler';
import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { refreshFleetGauges } from './fleet-gauges';
import { stuckDetail } from './stuck-reports';

describe('fleet gauges', () => {
  const ctx = useRedis('fleet-gauges');

  it('export what is in Redis: backlog figures, ready and leased hooks, stuck hooks, worker heartbeats', async () => {
    const keys = redisKeys(ctx.prefix);
    const now = Date.now();
    const clock = () => new Date(now);
    await ctx.redis.hset(
      keys.fleetFigures(),
      figuresToHash({
        waiting: 42,
        oldest: [
          { hookId: 'hk_worst', since: now - 300_000 },
          { hookId: 'hk_next', since: now - 60_000 },
        ],
        at: now - 2_000,
      }),
    );
    const ready = new ReadySet(ctx.redis, keys, clock);
    await ready.signal(['hk_a', 'hk_b']);
    await ready.claim([], 1, 10_000, 'w_1');
    await ctx.redis.zadd(keys.stuckHooks(), now, 'hk_stuck');
    const roster = new WorkerRoster(ctx.redis, keys, () => new Date(now - 40_000));
    await roster.beat('host-1/100/silent');
    await new WorkerRoster(ctx.redis, keys, clock).beat('host-2/200/alive');

    const metrics = fleetMetrics(createMetrics().registry);
    await refreshFleetGauges({ redis: ctx.redis, keys, ready, roster, metrics, clock });

    const value = async (gauge: { get(): Promise<{ values: { value: number }[] }> }) =>
      (await gauge.get()).values[0]?.value;
    expect(await value(metrics.eventsWaiting)).toBe(42);
    expect(await value(metrics.oldestEventAge)).toBe(300);
    expect((await metrics.hookOldestEventAge.get()).values).toEqual([
      { labels: { hook: 'hk_worst' }, value: 300 },
      { labels: { hook: 'hk_next' }, value: 60 },
    ]);
    expect(await value(metrics.sweepAge)).toBe(2);
    expect(await value(metrics.hooksReady)).toBe(1);
    expect(await value(metrics.hooksLeased)).toBe(1);
    expect(await value(metrics.hooksStuck)).toBe(1);
    expect(await value(metrics.workersAlive)).toBe(1);
    expect((await metrics.workerHeartbeatAge.get()).values).toEqual([
      { labels: { worker: 'host-1/100/silent' }, value: 40 },
      { labels: { worker: 'host-2/200/alive' }, value: 0 },
    ]);
  });
});

describe('the activity entry of a stuck hook', () => {
  it('says what the customer would notice, and that the operators know, without naming hookline', () => {
    const backlog = { waiting: 3, active: 0, paused: false };
    // Shown as is on the Activity page, whatever the operator's brand (§16: customers never read hookline).
    expect(stuckDetail({ hookId: 'hk_1', since: 0, backlog }, 125_000)).toBe(
      '3 events are waiting and no delivery process has taken them up for 2 minutes, even after the hook was woken again; your provider is alerted',
    );
    // A short stuck-after time reports within the first minute: said in seconds, not rounded up to a minute.
    expect(stuckDetail({ hookId: 'hk_1', since: 0, backlog: { ...backlog, waiting: 1 } }, 6_003)).toBe(
      '1 event is waiting and no delivery process has taken it up for 6 seconds, even after the hook was woken again; your provider is alerted',
    );
  });
});
