import { startReceiver, startTinyproxy } from '@hookline/testing';
import type { useHookline } from './harness';

/** Short waits between a worker's tries through a proxy, so a test sees many refused tries in little time. */
export const EGRESS_TIMINGS = { egressFirstWaitMs: 50, egressMaxWaitMs: 200 };

/**
 * A receiver, a tinyproxy that may reach it (leaving from 127.0.0.2), and an account with one hook on the
 * receiver; closed after the test. No worker: each test starts its own, with the proxy it wants.
 */
export async function proxiedHook(h: ReturnType<typeof useHookline>) {
  const receiver = await startReceiver();
  h.ctx.closeLater(receiver);
  const proxy = await startTinyproxy({ connectPorts: [receiver.port] });
  h.ctx.onCleanup(() => proxy.close());
  const account = await h.account();
  const hook = await h.hook(account.id, { url: receiver.url('/webhook') });
  return { receiver, proxy, account, hook };
}
