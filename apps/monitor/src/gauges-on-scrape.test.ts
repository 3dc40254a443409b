import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { figuresToHash } from '@hookline/scheduler';
import { watchCommands } from '@hookline/testing';
import { useMonitorHarness } from '../test/harness';

// The monitor's gauges (fleet figures, ready and leased hooks, stuck hooks, workers, suspended hooks, Redis
// and the history database up, the history lag) are read when scraped: an idle monitor reads none of them
// between scrapes, and a scrape shows what Redis holds at that moment.
const h = useMonitorHarness();

/**
 * The gauges' reads of this test's keys, as Redis runs them (MONITOR): the counts (ZCARD, ZCOUNT, SCARD) and
 * the worker roster, which only the gauges read. (The watchdog reads and writes the figures and the stuck
 * index on its own tick: that is its work, not a gauge's.)
 */
async function watchGaugeReads(redis: Redis, keys: readonly string[], roster: string) {
  const seen: string[] = [];
  const watch = await watchCommands(redis, (args) => {
    const counted = ['zcard', 'zcount', 'scard'].includes(args[0]!.toLowerCase());
    if ((counted && keys.includes(args[1]!)) || args.includes(roster)) seen.push(args.join(' '));
  });
  h.ctx.onCleanup(() => watch.stop());
  return seen;
}

describe('monitor gauges', () => {
  it('are read when scraped, not on a timer', async () => {
    const { keys } = h;
    const seen = await watchGaugeReads(
      h.ctx.redis,
      [keys.readyHooks(), keys.hookLeases(), keys.stuckHooks(), keys.suspendedHooks()],
      keys.workers(),
    );
    h.start({ HOOKLINE_SUSPEND_AFTER_FAILURES: 3, HOOKLINE_SUSPEND_AFTER_MS: 1000 });
    await sleep(2500); // the watchdog and the other loops ticked twice meanwhile
    expect(seen).toEqual([]);

    await h.ctx.redis.hset(keys.fleetFigures(), figuresToHash({ waiting: 7, oldest: [], at: Date.now() }));
    await h.ctx.redis.sadd(keys.suspendedHooks(), 'hk_a', 'hk_b');
    const text = await h.metrics.registry.metrics();
    expect(text).toMatch(/^hookline_events_waiting 7$/m);
    expect(text).toMatch(/^hookline_hooks_suspended 2$/m);
    expect(text).toMatch(/^hookline_redis_up 1$/m);
    expect(text).toMatch(/^hookline_history_database_up 1$/m);
    expect(text).toMatch(/^hookline_history_lag_seconds 0$/m);
    // One read of each key per scrape, however many gauges come from it.
    await sleep(200); // MONITOR's lines arrive after the replies
    const reads = seen.length;
    expect(seen.filter((line) => /^scard /i.test(line))).toHaveLength(1);
    expect(seen.filter((line) => /^zcount /i.test(line))).toHaveLength(1);

    await sleep(2500);
    expect(seen).toHaveLength(reads);
  }, 20_000);

  it('say when a primary has fewer replicas online than HOOKLINE_REDIS_REPLICA_ACKS asks for', async () => {
    // The test's Redis has no replica: with acknowledgements asked for, publishing would answer 503.
    const short = async () =>
      /^hookline_redis_replicas_short (\d)$/m.exec(await h.metrics.registry.metrics())?.[1];
    const asking = h.start({
      HOOKLINE_SUSPEND_AFTER_FAILURES: 3,
      HOOKLINE_SUSPEND_AFTER_MS: 1000,
      HOOKLINE_REDIS_REPLICA_ACKS: 1,
    });
    await expect(short()).resolves.toBe('1');
    await expect(h.ctx.redis.info('replication')).resolves.toMatch(/connected_slaves:0/);
    await asking.close();
  }, 20_000);

  it('say nothing is short when no acknowledgement is asked for', async () => {
    h.start({ HOOKLINE_SUSPEND_AFTER_FAILURES: 3, HOOKLINE_SUSPEND_AFTER_MS: 1000 });
    expect(await h.metrics.registry.metrics()).toMatch(/^hookline_redis_replicas_short 0$/m);
  }, 20_000);
});
