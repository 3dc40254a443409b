import { startReceiver, startTinyproxy, waitUntil } from '@hookline/testing';
import { ReadySet } from '@hookline/scheduler';
import { createMetrics } from '@hookline/telemetry';
import { startHttpTier } from '../support/http-tier';
import { EGRESS_TIMINGS, proxiedHook } from './egress-support';
import { useHookline } from './harness';

// Events the egress proxy kept back, when the worker stops waiting: several queued, resumed without a new event.
describe('events kept back by the egress proxy, put back in the queue', () => {
  const h = useHookline();
  const timings = EGRESS_TIMINGS;
  const setUp = () => proxiedHook(h);
  const ids = (r: { body: Buffer }[]) =>
    r.map((x) => (JSON.parse(x.body.toString()) as { call_id: string }).call_id);

  /** The endpoint got `calls` once each, in order, and each is recorded delivered as its first attempt (auto). */
  async function expectSentOnceInOrder(
    receiver: Awaited<ReturnType<typeof startReceiver>>,
    hookId: string,
    calls: string[],
    timeoutMs?: number,
  ): Promise<void> {
    await receiver.waitFor(calls.length, timeoutMs);
    expect(ids(receiver.requests)).toEqual(calls);
    const log = await waitUntil(async () => {
      const records = await h.deliveries(hookId);
      return records.length === calls.length ? records : undefined;
    }, `${calls.length} records`);
    expect(log.map((r) => [r.call_id, r.outcome, r.trigger])).toEqual(
      [...calls].reverse().map((call) => [call, 'delivered', 'auto']),
    );
  }

  it('a paused hook with events kept back goes on resume alone, in order, once each', async () => {
    const { receiver, proxy, account, hook } = await setUp();
    const metrics = createMetrics();
    h.startWorker({ HOOKLINE_EGRESS_PROXY: proxy.url }, { metrics, timings });
    await proxy.stop();
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `q-${n}` });
    await waitUntil(async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait, 'the wait');
    await h.hookQueues.pause(hook.id);
    await proxy.start();
    await waitUntil(async () => (await h.hookQueues.waitingCount(hook.id)) === 3, 'all three held');
    expect(receiver.requests).toHaveLength(0);
    // As an admin's resume (HookControl.enable) does: the flag goes, then the hook is signalled ready.
    await h.hookQueues.resume(hook.id);
    await new ReadySet(h.ctx.redis, h.keys).signal([hook.id]);
    await expectSentOnceInOrder(receiver, hook.id, ['q-1', 'q-2', 'q-3']);
  });

  it('hooks taking turns at the only slot keep waiting: each wait stays shown, from its first refused try', async () => {
    const { account } = await setUp();
    const refusing = await startTinyproxy({ connectPorts: [443] });
    h.ctx.onCleanup(() => refusing.close());
    const second = await h.hook(account.id, { url: 'http://127.0.0.1:9/other' });
    // One slot for two hooks: each holds it for its tenure (1 s), then hands it to the other while still waiting.
    h.startWorker({ HOOKLINE_EGRESS_PROXY: refusing.url, HOOKLINE_WORKER_MAX_HOOKS: 1 }, { timings });
    await h.publish(account.id, { call_id: 'turns-1' });
    const hooks = (await h.store.hooks.list(account.id)).map((x) => x.id);
    expect(hooks).toContain(second.id);
    const waits = async () =>
      Promise.all(hooks.map(async (id) => (await h.store.hooks.get(account.id, id))?.egress_wait?.since));
    const first = await waitUntil(async () => {
      const since = await waits();
      return since.every(Boolean) ? since : undefined;
    }, 'both hooks waiting');
    // Through several hand-overs of the slot, neither wait is cleared nor begins again.
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      expect(await waits()).toEqual(first);
    }
  });

  it('a worker stopped while three events wait goes on with the next worker, in order, once each', async () => {
    const { receiver, account, hook } = await setUp();
    const refusing = await startTinyproxy({ connectPorts: [443] });
    h.ctx.onCleanup(() => refusing.close());
    const first = h.startWorker({ HOOKLINE_EGRESS_PROXY: refusing.url }, { timings });
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `s-${n}` });
    await waitUntil(async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait, 'the wait');
    await first.close();
    const fixed = await startTinyproxy({ connectPorts: [receiver.port] });
    h.ctx.onCleanup(() => fixed.close());
    h.startWorker({ HOOKLINE_EGRESS_PROXY: fixed.url }, { timings });
    await expectSentOnceInOrder(receiver, hook.id, ['s-1', 's-2', 's-3']);
  });

  it('a worker killed while three events wait: the next worker sends them in order, once each', async () => {
    const { receiver, account, hook } = await setUp();
    const refusing = await startTinyproxy({ connectPorts: [443] });
    h.ctx.onCleanup(() => refusing.close());
    const killed = h.spawnWorker(undefined, { HOOKLINE_EGRESS_PROXY: refusing.url });
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `k-${n}` });
    await waitUntil(async () => (await h.store.hooks.get(account.id, hook.id))?.egress_wait, 'the wait');
    killed.kill('SIGKILL');
    await killed.exited;
    const fixed = await startTinyproxy({ connectPorts: [receiver.port] });
    h.ctx.onCleanup(() => fixed.close());
    h.startWorker({ HOOKLINE_EGRESS_PROXY: fixed.url }, { timings });
    await expectSentOnceInOrder(receiver, hook.id, ['k-1', 'k-2', 'k-3'], 45000);
  }, 90000);
});

describe('/readyz egress_proxy after a waiting hook goes away', () => {
  const h = useHookline();
  const timings = { egressFirstWaitMs: 50, egressMaxWaitMs: 200 };

  async function refusedSetUp() {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const refusing = await startTinyproxy({ connectPorts: [443] });
    h.ctx.onCleanup(() => refusing.close());
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/webhook') });
    h.startWorker({ HOOKLINE_EGRESS_PROXY: refusing.url }, { timings });
    const { base } = await startHttpTier(h.ctx, { HOOKLINE_EGRESS_PROXY: refusing.url });
    const check = async () =>
      (
        (await (await fetch(`${base}/readyz`)).json()) as {
          checks: { name: string; status: string; detail: string }[];
        }
      ).checks.find((c) => c.name === 'egress_proxy')!;
    await h.publish(account.id, { call_id: 'kept-back' });
    await waitUntil(async () => (await check()).status === 'refused', 'refused');
    return { receiver, account, hook, check };
  }

  it('clears when the waiting hook is deleted', async () => {
    const { receiver, account, hook, check } = await refusedSetUp();
    await h.store.hooks.remove(account.id, hook.id, 'operator');
    await waitUntil(async () => (await check()).status === 'ok', 'ok after the delete', 10000);
    expect(receiver.requests).toHaveLength(0);
  });

  it('clears when the waiting hook is paused', async () => {
    const { receiver, hook, check } = await refusedSetUp();
    await h.hookQueues.pause(hook.id);
    await waitUntil(async () => (await check()).status === 'ok', 'ok after the pause', 10000);
    expect(receiver.requests).toHaveLength(0);
    expect(await h.hookQueues.waitingCount(hook.id)).toBe(1);
  });
});
