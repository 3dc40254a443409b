import type { Redis } from 'ioredis';
import { startMonitor } from '@hookline/monitor';
import { createLogger, createMetrics, type Metrics } from '@hookline/telemetry';
import { connectRedis, startReceiver, waitUntil, type Receiver } from '@hookline/testing';
import { useHookline } from './harness';

// The shortest HOOKLINE_STUCK_AFTER_MS the settings accept; the watchdog looks ten times a second.
const STUCK_AFTER_MS = 1000;
const TICK_MS = 100;

interface LogLine {
  level: number;
  msg: string;
  hookId?: string;
}

// Issue 16: a hook with work waiting and no worker on it (not leased, not in the ready set) is woken again;
// if that does not help, it is reported: a log line, a metric, an activity entry on the hook's account.
describe('the watchdog', () => {
  const h = useHookline();
  let receiver: Receiver;

  beforeEach(async () => {
    receiver = await startReceiver(() => ({ kind: 'status', status: 200 }));
    h.ctx.closeLater(receiver);
  });

  function monitor(name: string) {
    const lines: LogLine[] = [];
    const metrics = createMetrics();
    const running = startMonitor({
      redis: h.ctx.redis,
      keys: h.keys,
      store: h.store,
      history: h.history,
      logger: createLogger('info', name, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      metrics,
      config: {
        HOOKLINE_SUSPEND_AFTER_FAILURES: 10,
        HOOKLINE_SUSPEND_AFTER_MS: 600_000,
        HOOKLINE_STUCK_AFTER_MS: STUCK_AFTER_MS,
      },
      consumerName: name,
      operationsTickMs: TICK_MS,
      blockMs: 100,
    });
    h.ctx.onCleanup(() => running.close());
    return { lines, metrics };
  }

  const gauge = async (metrics: Metrics, name: string) =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
  const signalled = async (hookId: string) =>
    (await h.ctx.redis.zscore(h.keys.readyHooks(), hookId)) !== null;
  const activity = async (accountId: string, kind: string) =>
    (await h.store.activity.list(accountId, 100)).filter((e) => e.kind === kind);
  /** The account's first "Deliveries stalled" entry, once the watchdog has reported a hook of it. */
  const reportedOn = async (accountId: string) => {
    const [entry] = await waitUntil(
      async () => {
        const found = await activity(accountId, 'hook.stuck');
        return found.length > 0 ? found : undefined;
      },
      'the stuck hook to be reported on its account',
      10_000,
    );
    return entry!;
  };

  it('wakes a hook whose ready signal was deleted by hand, and a worker then delivers its event', async () => {
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/lost') });
    await h.publish(account.id, { call_id: 'lost-signal' });
    expect(await signalled(hook.id)).toBe(true);
    // The signal is lost: nothing would ever come for this event until the hook's next one.
    await h.ctx.redis.zrem(h.keys.readyHooks(), hook.id);
    const lostAt = Date.now();
    // A worker runs all along (a fleet without one has its waiting hooks reported: see below); only the
    // wake-up brings it this hook.
    h.startWorker();

    const { metrics, lines } = monitor('monitor-1');
    await receiver.waitFor(1);
    expect(Date.now() - lostAt).toBeGreaterThanOrEqual(STUCK_AFTER_MS);
    expect(JSON.parse(receiver.requests[0]!.body.toString('utf8'))).toMatchObject({ call_id: 'lost-signal' });
    // The wake-up is counted and logged once its signal has been written: after the ready set, not with it.
    await waitUntil(
      async () => ((await gauge(metrics, 'hookline_watchdog_wakeups_total')) ?? 0) > 0,
      'the wake-up to be counted',
    );
    expect(await gauge(metrics, 'hookline_watchdog_wakeups_total')).toBe(1);
    expect(lines.filter((l) => l.msg.startsWith('watchdog: woke hooks'))).toHaveLength(1);
    await waitUntil(
      async () => (await gauge(metrics, 'hookline_workers_alive')) === 1,
      'the worker on the roster',
    );
    // Woken and served: nothing to report.
    await waitUntil(
      async () => (await h.hookQueues.backlogMany([hook.id]))[0]?.active === 0,
      'the job to finish',
    );
    expect(await activity(account.id, 'hook.stuck')).toEqual([]);
    expect(await gauge(metrics, 'hookline_watchdog_stuck_reports_total')).toBe(0);
  });

  // An honest way for a wake-up to fail: a worker that takes the hook from the ready set (BZPOPMIN) and dies
  // before it leases it leaves the hook in neither place, exactly as a lost signal does. Here every wake-up
  // meets such a worker, so the hook cannot be woken until they stop dying.
  it('reports a hook it cannot wake, once across two monitors, and sees it recover', async () => {
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/unlucky') });
    const dying = connectRedis();
    h.ctx.onCleanup(() => dying.disconnect());
    let dyingWorkers = true;
    const popped: string[] = [];
    const dieAfterPopping = async (redis: Redis) => {
      while (dyingWorkers) {
        const got = await redis.bzpopmin(h.keys.readyHooks(), 0.1);
        if (got) popped.push(got[1]);
      }
    };
    const loop = dieAfterPopping(dying);
    h.ctx.onCleanup(() => {
      dyingWorkers = false;
      return loop;
    });
    await h.publish(account.id, { call_id: 'stuck' });

    const monitors = [monitor('monitor-1'), monitor('monitor-2')];
    const entry = await reportedOn(account.id);
    expect(entry).toMatchObject({ hook_id: hook.id, actor: 'monitor' });
    expect(entry.detail).toMatch(
      /^1 event is waiting and no delivery process has taken it up for \d+ (seconds?|minutes?)/,
    );
    expect(popped.length).toBeGreaterThanOrEqual(2); // the publish's own signal, then the watchdog's wake-up

    // Still stuck a while later: woken again, never reported twice, by either monitor.
    const wakeups = popped.length;
    await waitUntil(() => popped.length > wakeups, 'another wake-up');
    expect(await activity(account.id, 'hook.stuck')).toHaveLength(1);
    // And one notice for the operator (sent on to HOOKLINE_OPERATOR_WEBHOOK_URL when it is set).
    const notices = (await h.ctx.redis.xrange(h.keys.notices(), '-', '+')).map(([, fields]) =>
      JSON.parse(fields[1]!),
    );
    expect(notices.filter((n: { kind: string }) => n.kind === 'hook.stuck')).toEqual([
      expect.objectContaining({ kind: 'hook.stuck', hookId: hook.id, accountId: account.id, count: 1 }),
    ]);
    const warnings = monitors.flatMap((m) => m.lines).filter((l) => l.level === 40 && l.hookId === hook.id);
    expect(warnings.map((l) => l.msg)).toEqual([
      'watchdog: hook stuck: events waiting and no worker on it, even after a wake-up',
    ]);
    const reports = await Promise.all(
      monitors.map((m) => gauge(m.metrics, 'hookline_watchdog_stuck_reports_total')),
    );
    expect(reports.sort()).toEqual([0, 1]);
    for (const m of monitors)
      await waitUntil(
        async () => (await gauge(m.metrics, 'hookline_hooks_stuck')) === 1,
        'both to export 1 stuck hook',
      );

    // The dying stops: the next wake-up reaches a real worker, the event is delivered, the hook recovers.
    dyingWorkers = false;
    await loop;
    h.startWorker();
    await receiver.waitFor(1, 10_000);
    for (const m of monitors)
      await waitUntil(
        async () => (await gauge(m.metrics, 'hookline_hooks_stuck')) === 0,
        'the stuck gauge to clear',
      );
    expect(await activity(account.id, 'hook.stuck')).toHaveLength(1);
  });

  // With every worker stopped, a hook in the ready set waits for nobody: it is woken, then reported, as one
  // whose signal was lost is; a worker that starts delivers its event and the hook recovers.
  it('reports a hook waiting in the ready set while no worker runs, and sees it recover when one starts', async () => {
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/nobody') });
    await h.publish(account.id, { call_id: 'nobody' });
    expect(await signalled(hook.id)).toBe(true);

    const { metrics, lines } = monitor('monitor-1');
    const entry = await reportedOn(account.id);
    expect(entry).toMatchObject({ hook_id: hook.id, actor: 'monitor' });
    expect(lines.filter((l) => l.level === 40 && l.hookId === hook.id).map((l) => l.msg)).toEqual([
      'watchdog: hook stuck: events waiting and no worker on it, even after a wake-up',
    ]);
    expect(await gauge(metrics, 'hookline_watchdog_wakeups_total')).toBeGreaterThanOrEqual(1);
    await waitUntil(async () => (await gauge(metrics, 'hookline_hooks_stuck')) === 1, 'the stuck gauge');
    const notices = (await h.ctx.redis.xrange(h.keys.notices(), '-', '+')).map(([, fields]) =>
      JSON.parse(fields[1]!),
    );
    expect(notices.filter((n: { kind: string }) => n.kind === 'hook.stuck')).toEqual([
      expect.objectContaining({ kind: 'hook.stuck', hookId: hook.id, accountId: account.id, count: 1 }),
    ]);

    h.startWorker();
    await receiver.waitFor(1, 10_000);
    await waitUntil(
      async () => (await gauge(metrics, 'hookline_hooks_stuck')) === 0,
      'the stuck gauge to clear',
    );
    expect(await activity(account.id, 'hook.stuck')).toHaveLength(1);
  });
});

describe('worker heartbeats', () => {
  const h = useHookline();

  it('a worker is on the roster while it runs and leaves it when it stops, so stopping it raises no alert', async () => {
    const worker = h.startWorker();
    const names = () => h.ctx.redis.zrange(h.keys.workers(), 0, -1);
    const [name] = await waitUntil(async () => {
      const found = await names();
      return found.length === 1 ? found : undefined;
    }, 'the worker to beat');
    expect(name).toMatch(new RegExp(`/${process.pid}/`));
    await worker.close();
    expect(await names()).toEqual([]);
  });
});
