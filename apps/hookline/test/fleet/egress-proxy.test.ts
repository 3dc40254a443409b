import { startReceiver, startTinyproxy, waitUntil } from '@hookline/testing';
import { createMetrics } from '@hookline/telemetry';
import { startHttpTier } from '../support/http-tier';
import { EGRESS_TIMINGS, proxiedHook } from './egress-support';
import { useHookline } from './harness';

// HOOKLINE_EGRESS_PROXY end to end: producer -> Redis -> worker -> tinyproxy (leaving from 127.0.0.2) -> endpoint.
describe('deliveries through the egress proxy', () => {
  const h = useHookline();
  const timings = EGRESS_TIMINGS;

  async function setUp() {
    const { receiver, proxy, account, hook } = await proxiedHook(h);
    const metrics = createMetrics();
    h.startWorker({ HOOKLINE_EGRESS_PROXY: proxy.url }, { metrics, timings });
    return { receiver, proxy, account, hook, metrics };
  }

  const refusedTries = async (metrics: ReturnType<typeof createMetrics>) =>
    (await metrics.egressProxyFailures.get()).values.reduce((sum, v) => sum + v.value, 0);

  it("reach the endpoint from the proxy's address, recorded as delivered", async () => {
    const { receiver, proxy, account, hook } = await setUp();
    await h.publish(account.id, { call_id: 'via-proxy' });
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.remoteAddress).toBe('127.0.0.2');
    expect(receiver.requests[0]!.body.toString()).toContain('"call_id":"via-proxy"');
    expect(proxy.connects()).toEqual([`127.0.0.1:${receiver.port}`]);
    const [record] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length > 0 ? log : undefined;
    }, 'the delivery record');
    expect(record).toMatchObject({ outcome: 'delivered', trigger: 'auto', status_code: 200 });
  });

  it('with the proxy down, events wait (no record, no streak, still active) and go once each, in order, when it is back', async () => {
    const { receiver, proxy, account, hook, metrics } = await setUp();
    await proxy.stop();
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `wait-${n}` });

    // The hook says why its deliveries wait, and keeps trying: well past the suspension threshold (10).
    const view = await waitUntil(async () => {
      const current = await h.store.hooks.get(account.id, hook.id);
      return current?.egress_wait && (await refusedTries(metrics)) >= 12 ? current : undefined;
    }, 'a dozen refused tries and the wait on the hook');
    expect(view.egress_wait!.reason).toBe(
      `the egress proxy 127.0.0.1:${proxy.port} cannot be reached: ECONNREFUSED`,
    );
    expect(view.state).toBe('active');
    expect(view.health).toBe('healthy');
    expect(await h.deliveries(hook.id)).toEqual([]);
    expect(await h.ctx.redis.exists(h.keys.hookStreak(hook.id))).toBe(0);
    expect(receiver.requests).toHaveLength(0);

    await proxy.start();
    await receiver.waitFor(3);
    expect(receiver.requests.map((r) => JSON.parse(r.body.toString()).call_id)).toEqual([
      'wait-1',
      'wait-2',
      'wait-3',
    ]);
    const log = await waitUntil(async () => {
      const records = await h.deliveries(hook.id);
      return records.length === 3 ? records : undefined;
    }, 'three records');
    // Each event's first and only attempt: delivered, never `unknown`, never a resend.
    expect(log.map((r) => [r.call_id, r.outcome, r.trigger])).toEqual([
      ['wait-3', 'delivered', 'auto'],
      ['wait-2', 'delivered', 'auto'],
      ['wait-1', 'delivered', 'auto'],
    ]);
    await waitUntil(
      async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait === undefined,
      'the wait to be cleared',
    );
    expect(receiver.requests).toHaveLength(3);
  });

  it('an endpoint that is down behind the proxy fails like a refused connection: recorded, counted, suspended', async () => {
    const { receiver, proxy, account, hook, metrics } = await setUp();
    h.startMonitor({ failures: 3, ms: 0 });
    // The proxy is up and may tunnel to the endpoint's port; the endpoint is gone.
    await receiver.close();
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `down-${n}` });

    const view = await waitUntil(async () => {
      const current = await h.store.hooks.get(account.id, hook.id);
      return current?.state === 'suspended' ? current : undefined;
    }, 'the hook to be suspended after three errors');
    expect(view.egress_wait).toBeUndefined();
    const log = await waitUntil(async () => {
      const records = await h.deliveries(hook.id);
      return records.length === 3 ? records : undefined;
    }, 'three records');
    const reason = `the egress proxy 127.0.0.1:${proxy.port} could not reach 127.0.0.1:${receiver.port}: it answered CONNECT with 500 Unable to connect`;
    expect(log.map((r) => [r.call_id, r.outcome, r.trigger, r.error])).toEqual([
      ['down-3', 'error', 'auto', reason],
      ['down-2', 'error', 'auto', reason],
      ['down-1', 'error', 'auto', reason],
    ]);
    // Each event was tried once, through the proxy; none waited on it.
    await waitUntil(() => proxy.connects().length === 3, 'three tunnels in the log');
    expect(proxy.connects()).toEqual(Array(3).fill(`127.0.0.1:${receiver.port}`));
    expect(await refusedTries(metrics)).toBe(0);
  });

  it('a proxy that requires credentials lets a worker with them through', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const proxy = await startTinyproxy({
      connectPorts: [receiver.port],
      basicAuth: { user: 'hookline', password: 'egress-pw' },
    });
    h.ctx.onCleanup(() => proxy.close());
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url('/webhook') });
    h.startWorker({ HOOKLINE_EGRESS_PROXY: proxy.url }, { timings });
    await h.publish(account.id);
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.remoteAddress).toBe('127.0.0.2');
  });
  it('/readyz says the proxy refuses while it keeps deliveries back, naming it by host and port only, and ok once they go', async () => {
    const refusedPort = await startReceiver();
    h.ctx.closeLater(refusedPort);
    const allowed = await startReceiver();
    h.ctx.closeLater(allowed);
    // Reachable, and refusing: CONNECT to refusedPort is outside its ConnectPort list (403 Access violation).
    const proxy = await startTinyproxy({
      connectPorts: [allowed.port],
      basicAuth: { user: 'hookline', password: 'egress-pw' },
    });
    h.ctx.onCleanup(() => proxy.close());
    const account = await h.account();
    const hook = await h.hook(account.id, { url: refusedPort.url('/webhook') });
    h.startWorker({ HOOKLINE_EGRESS_PROXY: proxy.url }, { timings });
    const { base } = await startHttpTier(h.ctx, { HOOKLINE_EGRESS_PROXY: proxy.url });
    const egressCheck = async () => {
      const res = await fetch(`${base}/readyz`);
      const body = await res.text();
      expect(res.status).toBe(200);
      expect(body).not.toContain('egress-pw');
      return (JSON.parse(body) as { checks: { name: string; status: string; detail: string }[] }).checks.find(
        (c) => c.name === 'egress_proxy',
      )!;
    };

    await h.publish(account.id, { call_id: 'kept-back' });
    const refused = await waitUntil(async () => {
      const check = await egressCheck();
      return check.status !== 'ok' ? check : undefined;
    }, 'readiness to report the refusal');
    expect(refused).toEqual({
      name: 'egress_proxy',
      status: 'refused',
      detail:
        `127.0.0.1:${proxy.port} accepts connections but keeps deliveries back: 1 hook waits on it; the last ` +
        `try: the egress proxy 127.0.0.1:${proxy.port} refused CONNECT 127.0.0.1:${refusedPort.port}: 403 Access violation`,
    });
    expect(refusedPort.requests).toHaveLength(0);

    // The hook now points where the proxy lets it through: the waiting event goes, and readiness says so.
    await h.store.hooks.update(account.id, hook.id, { url: allowed.url('/webhook') }, 'operator');
    await allowed.waitFor(1);
    await waitUntil(async () => (await egressCheck()).status === 'ok', 'readiness to be ok again');
    expect(await egressCheck()).toEqual({
      name: 'egress_proxy',
      status: 'ok',
      detail: expect.stringMatching(
        new RegExp(`^127\\.0\\.0\\.1:${proxy.port} accepted a connection in \\d+ ms$`),
      ),
    });
  });
  it('a worker stopped while the proxy kept a hook waiting leaves no wait behind: the next one says afresh', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const refusing = await startTinyproxy({ connectPorts: [443] });
    h.ctx.onCleanup(() => refusing.close());
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/webhook') });
    const first = h.startWorker({ HOOKLINE_EGRESS_PROXY: refusing.url }, { timings });
    const { base } = await startHttpTier(h.ctx, { HOOKLINE_EGRESS_PROXY: refusing.url });
    const hookWait = async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait;
    const readiness = async () =>
      (
        (await (await fetch(`${base}/readyz`)).json()) as { checks: { name: string; status: string }[] }
      ).checks.find((c) => c.name === 'egress_proxy')!.status;

    await h.publish(account.id, { call_id: 'kept-back' });
    await waitUntil(hookWait, 'the wait on the hook');
    expect(await readiness()).toBe('refused');

    // The operator fixes the proxy's rules and restarts the workers (here: another proxy that lets it through).
    await first.close();
    const fixed = await startTinyproxy({ connectPorts: [receiver.port] });
    h.ctx.onCleanup(() => fixed.close());
    h.startWorker({ HOOKLINE_EGRESS_PROXY: fixed.url }, { timings });
    await receiver.waitFor(1);
    await waitUntil(async () => (await hookWait()) === undefined, 'the wait on the hook to be gone');
    expect(await readiness()).toBe('ok');
    expect(receiver.requests).toHaveLength(1);
  });
  it('an event waiting on the proxy is held when the hook is suspended meanwhile, and goes once, first, on resume', async () => {
    const { receiver, proxy, account, hook, metrics } = await setUp();
    await proxy.stop();
    await h.publish(account.id, { call_id: 'waited' });
    await waitUntil(async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait, 'the wait');

    // An admin pauses the hook (Bull Board) while its event waits, then the proxy comes back.
    await h.hookQueues.pause(hook.id);
    await proxy.start();
    // The worker lets go of the event (its wait ends, the gauge says so) or, wrongly, sends it to a suspended hook.
    await waitUntil(
      async () =>
        receiver.requests.length > 0 ||
        ((await metrics.hooksWaitingOnEgress.get()).values[0]?.value === 0 &&
          (await h.store.hooks.get(account.id, hook.id))?.egress_wait === undefined),
      'the worker to stop waiting, or a request',
    );
    // Any holder may now take the hook up: it must not take the event and send it. A second worker, started
    // now, and a new event (which signals the hook) give it every chance.
    h.startWorker({ HOOKLINE_EGRESS_PROXY: proxy.url }, { timings });
    await h.publish(account.id, { call_id: 'held-behind' });
    // Both are held, the one that waited on the proxy first (the website's held list shows them).
    await waitUntil(async () => (await h.hookQueues.waitingCount(hook.id)) === 2, 'both events held');
    expect(receiver.requests).toHaveLength(0);
    expect((await h.store.hooks.get(account.id, hook.id))?.state).toBe('suspended');

    await h.hookQueues.resume(hook.id);
    await h.publish(account.id, { call_id: 'after' });
    await receiver.waitFor(3);
    expect(receiver.requests.map((r) => JSON.parse(r.body.toString()).call_id)).toEqual([
      'waited',
      'held-behind',
      'after',
    ]);
    const log = await waitUntil(async () => {
      const records = await h.deliveries(hook.id);
      return records.length === 3 ? records : undefined;
    }, 'three records');
    expect(log.map((r) => [r.call_id, r.outcome, r.trigger])).toEqual([
      ['after', 'delivered', 'auto'],
      ['held-behind', 'delivered', 'auto'],
      ['waited', 'delivered', 'auto'],
    ]);
  });
});
