import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

const WORKER = 'apps/hookline/src/worker-main.ts';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A process can stall for many reasons (a long GC pause, CPU throttling in a container, a VM migration). A
// worker frozen with SIGSTOP past its leases and locks loses its hooks to the others, which carry on; when it
// wakes up it must send nothing stale: no second attempt of an event, nothing out of order.
describe('a frozen worker process', () => {
  const h = useHookline();

  it('its hooks carry on without it, and after SIGCONT it sends nothing twice or out of order', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 300 }));
    h.ctx.closeLater(receiver);
    const HOOKS = 20;
    const hooks = await Promise.all(
      Array.from({ length: HOOKS }, async (_, i) => {
        const account = await h.account(`frozen-${i}`);
        const hook = await h.hook(account.id, { url: receiver.url(`/f/${i}`) });
        return { account, hook, published: [] as string[] };
      }),
    );
    // A 3 s deadline makes the job lock 13 s: the freeze below outlasts both the lease (10 s) and the lock.
    const env = { HOOKLINE_DELIVERY_TIMEOUT_MS: '3000' };
    const fleet = [h.spawnWorker(WORKER, env), h.spawnWorker(WORKER, env), h.spawnWorker(WORKER, env)];
    await Promise.all(fleet.map((w) => w.waitForOutput('worker started')));

    let n = 0;
    let publishing = true;
    const publisher = (async () => {
      while (publishing) {
        const target = hooks[n % HOOKS]!;
        const callId = `call-${n}`;
        n += 1;
        await h.publish(target.account.id, { call_id: callId });
        target.published.push(callId);
        await sleep(40);
      }
    })();
    await sleep(3000);
    const frozen = fleet[0]!;
    frozen.kill('SIGSTOP');
    const frozenAt = hooks.map((x) => [...x.published]);
    await sleep(25_000);
    // Within the freeze, the others have taken over: everything published before it has an outcome.
    for (const [i, { hook }] of hooks.entries())
      expect((await h.deliveries(hook.id)).length).toBeGreaterThanOrEqual(frozenAt[i]!.length);
    frozen.kill('SIGCONT');
    await sleep(4000);
    publishing = false;
    await publisher;

    for (const { hook, published } of hooks)
      await waitUntil(
        async () => (await h.deliveries(hook.id)).length >= published.length,
        `an outcome for every event of ${hook.id}`,
        30_000,
      );
    await sleep(1000); // anything stale the woken process might still send would arrive by now
    expect(receiver.maxInFlightPerPath).toBe(1);
    for (const [i, { hook, published }] of hooks.entries()) {
      const received = receiver.requests
        .filter((r) => r.path === `/f/${i}`)
        .map((r) => (JSON.parse(r.body.toString('utf8')) as { call_id: string }).call_id);
      // In publish order, each at most once; an event whose request may have left when its holder froze is
      // recorded `unknown` and never sent again.
      const positions = received.map((id) => published.indexOf(id));
      expect(positions.every((p, k) => p >= 0 && (k === 0 || p > positions[k - 1]!))).toBe(true);
      const log = await h.deliveries(hook.id);
      expect(log).toHaveLength(published.length);
      expect(new Set(log.map((r) => r.event_id)).size).toBe(published.length);
      expect(log.filter((r) => r.outcome !== 'delivered').every((r) => r.outcome === 'unknown')).toBe(true);
      expect(log.filter((r) => r.outcome === 'delivered').length).toBeLessThanOrEqual(received.length);
    }
    frozen.kill('SIGTERM');
    expect(await frozen.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
