import { MONITOR_GROUP } from '@hookline/queue';
import { HookControl, readStreak } from '@hookline/suspension';
import { waitUntil } from '@hookline/testing';
import { useMonitorHarness } from '../test/harness';

const h = useMonitorHarness();
const MINUTE = 60_000;

const rules = (failures: number, ms: number) => ({
  HOOKLINE_SUSPEND_AFTER_FAILURES: failures,
  HOOKLINE_SUSPEND_AFTER_MS: ms,
});

async function gauge(): Promise<number | undefined> {
  return (await h.metrics.suspendedHooks.get()).values[0]?.value;
}

describe('suspension monitor', () => {
  it('suspends a hook that keeps failing: queue paused, reason, failures, activity, gauge', async () => {
    h.start(rules(3, 200));
    const startedAt = Date.now();
    await h.failures(3, startedAt);

    const view = await h.suspended();
    expect(await h.isPaused()).toBe(true);
    // A sentence for customers; when it happened is suspended_at.
    expect(view.suspended_reason).toMatch(
      /^3 consecutive failures (within a second|over \d+ seconds?); the last: the endpoint answered 500$/,
    );
    const info = await h.store.hooks.suspension(h.hook.account_id, h.hook.id);
    expect(info?.failures?.map((f) => f.status_code)).toEqual([500, 500, 500]);
    expect(await h.activityOf('hook.suspended')).toEqual([
      {
        kind: 'hook.suspended',
        at: view.suspended_at,
        hook_id: h.hook.id,
        actor: 'monitor',
        detail: view.suspended_reason,
      },
    ]);
    await waitUntil(async () => (await gauge()) === 1, 'the suspended-hooks gauge to show 1');
  });

  it('does not suspend on many quick failures while the first is younger than the window', async () => {
    h.start(rules(3, 10 * MINUTE));
    await h.failures(12);
    await h.consumed();
    expect(await readStreak(h.ctx.redis, h.keys, h.hook.id)).toMatchObject({
      count: 12,
    });
    expect(await h.isPaused()).toBe(false);
    expect((await h.view())?.state).toBe('active');
  });

  it('does not suspend on a few failures spread over a long time', async () => {
    h.start(rules(5, 200));
    const longAgo = Date.now() - 30 * MINUTE;
    for (const minutes of [0, 10, 20, 29]) await h.outcome('timed_out', longAgo + minutes * MINUTE);
    await h.consumed();
    expect(await h.isPaused()).toBe(false);
  });

  it('a delivered outcome resets the streak', async () => {
    h.start(rules(3, 0));
    const t = Date.now();
    await h.failures(2, t);
    await h.outcome('delivered', t + 2);
    await h.failures(2, t + 3);
    await h.consumed();
    expect(await h.isPaused()).toBe(false);

    await h.outcome('error', t + 5);
    const view = await h.suspended();
    expect(view.suspended_reason).toMatch(
      /^3 consecutive failures (within a second|over \d+ seconds?); the last: the connection to the endpoint failed$/,
    );
  });

  it('lists only the failures of the current streak after a re-enable, not those of the suspension before', async () => {
    h.start(rules(3, 0));
    const t = Date.now();
    await h.failures(3, t);
    await h.suspended();
    const control = new HookControl({
      redis: h.ctx.redis,
      keys: h.keys,
      hookQueues: h.hookQueues,
      store: h.store,
      holdMax: 10_000,
      signalReady: async () => undefined,
    });
    await control.enable(h.hook.account_id, h.hook.id, 'deliver', 'customer:test');
    // The endpoint is still down: three more failures, with no success in between in the log.
    await h.failures(3, Date.now() + 10);
    await h.suspended();
    const info = await h.store.hooks.suspension(h.hook.account_id, h.hook.id);
    expect(info?.failures).toHaveLength(3);
    expect(info?.failures?.every((f) => Date.parse(f.attempted_at) >= t + 10)).toBe(true);
  });

  it('suspends once the window has passed, with no further outcome', async () => {
    h.start(rules(2, 300));
    await h.failures(2);
    await h.consumed();
    await h.suspended();
    expect(await h.activityOf('hook.suspended')).toHaveLength(1);
  });

  it('ignores dropped events: expired and discarded are not failures', async () => {
    h.start(rules(2, 0));
    await h.outcome('failed', Date.now(), 503);
    await h.outcome('expired');
    await h.outcome('discarded');
    await h.consumed();
    expect(await h.isPaused()).toBe(false);
  });

  it('two monitors share the stream and produce one suspension', async () => {
    h.start(rules(3, 0), { batchSize: 1 });
    h.start(rules(3, 0), { batchSize: 1 });
    await h.failures(30);
    await h.consumed();
    expect(await h.isPaused()).toBe(true);
    expect(await h.activityOf('hook.suspended')).toHaveLength(1);
    // The failure of the request in flight at the suspension arrives later: still one suspension.
    await h.outcome('failed', Date.now(), 502);
    await h.consumed();
    expect(await h.activityOf('hook.suspended')).toHaveLength(1);
  });

  it('loses no outcome when a monitor dies after reading entries and before acknowledging them', async () => {
    await h.start(rules(100, 0)).close();
    await h.failures(3);
    // A monitor that read the three outcomes and died: they stay pending under its name.
    const read = await h.ctx.redis.xreadgroup(
      'GROUP',
      MONITOR_GROUP,
      'dead-monitor',
      'COUNT',
      10,
      'STREAMS',
      h.keys.outcomes(),
      '>',
    );
    expect((read as [string, unknown[]][])[0]![1]).toHaveLength(3);

    h.start(rules(3, 0), { claimIdleMs: 100 });
    const view = await h.suspended();
    expect(view.suspended_reason).toMatch(/^3 consecutive failures/);
    await h.consumed();
  });

  it('a monitor stopped and started again goes on where it left off', async () => {
    const first = h.start(rules(4, 0));
    await h.failures(2);
    await h.consumed();
    await first.close();
    await h.failures(2);
    expect(await h.isPaused()).toBe(false);

    h.start(rules(4, 0));
    expect((await h.suspended()).suspended_reason).toMatch(/^4 consecutive failures/);
  });

  it('carries on when its consumer group is gone (Redis restarted without its data), without a restart', async () => {
    h.start(rules(3, 0));
    await h.failures(1);
    await h.consumed();
    // What a Redis restarted empty leaves: no outcome stream, no group; the next outcome makes the stream again.
    await h.ctx.redis.del(h.keys.outcomes());
    await h.failures(3);
    expect((await h.suspended()).suspended_reason).toMatch(/^3 consecutive failures/);
  });
});

describe('failing hooks (half the suspension threshold)', () => {
  it('warns once, at exactly half the threshold, with two monitors; the hook shows failing', async () => {
    h.start(rules(6, 10 * MINUTE));
    h.start(rules(6, 10 * MINUTE));
    const t = Date.now();
    await h.failures(2, t);
    await h.consumed();
    expect((await h.view())?.health).toBe('healthy');
    expect(await h.activityOf('hook.failing')).toEqual([]);

    await h.failures(1, t + 10);
    await h.consumed();
    expect((await h.view())?.health).toBe('failing');
    const [entry, ...more] = await h.activityOf('hook.failing');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ hook_id: h.hook.id, actor: 'monitor' });
    expect(entry!.detail).toMatch(
      /^3 consecutive failures (within a second|over \d+ seconds?); the last: the endpoint answered 500; it will be suspended if this goes on$/,
    );

    await h.failures(2, t + 20);
    await h.consumed();
    expect(await h.activityOf('hook.failing')).toHaveLength(1);
    expect(await h.isPaused()).toBe(false);
  });

  it('is healthy again after a delivered outcome, and the next streak warns again', async () => {
    h.start(rules(4, 10 * MINUTE));
    const t = Date.now();
    await h.failures(2, t);
    await h.consumed();
    expect((await h.view())?.health).toBe('failing');
    await h.outcome('delivered', t + 100);
    await h.consumed();
    expect((await h.view())?.health).toBe('healthy');
    await h.failures(2, t + 200);
    await h.consumed();
    expect((await h.view())?.health).toBe('failing');
    expect(await h.activityOf('hook.failing')).toHaveLength(2);
  });
});
