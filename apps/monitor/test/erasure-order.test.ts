import { usePostgres, useRedis, waitUntil } from '@hookline/testing';
import type { Store } from '@hookline/store';
import { STEPS } from '../src/erasures/erasure-runner';
import { erasingMonitor, erasureDone } from './erasure-support';
import { openPipeline } from './pipeline';

jest.setTimeout(60000);

// Which erasures a monitor runs at once: each waits out its settle time (a minute in production) between its
// two passes, so erasures of different accounts must not queue behind each other; an account's own run in the
// order they were accepted.

const ctx = useRedis('erasure-order');
const pg = usePostgres('erasure_order');
const SETTLING = STEPS.indexOf('settle');

/** The step an erasure has reached (its steps before it done), or 'done'. */
async function stepOf(store: Store, accountId: string, id: string): Promise<number | 'done'> {
  const work = await store.erasures.work(accountId, id);
  return work ? work.step : 'done';
}

async function pipelineSettling(settleMs: number) {
  const p = await openPipeline(ctx, pg);
  const monitor = erasingMonitor(p.store.erasures);
  p.run({ deliveryTimeoutMs: 5000, monitor: { ...monitor, erasures: { ...monitor.erasures, settleMs } } });
  return p;
}

it("runs erasures of different accounts side by side: one's settle time holds up no other", async () => {
  const { store } = await pipelineSettling(600_000);
  const erasures: { accountId: string; id: string }[] = [];
  for (const name of ['First Telecom', 'Second Telecom', 'Third Telecom']) {
    const account = await store.accounts.create({ name });
    const asked = await store.erasures.request(
      account.id,
      { kind: 'number', value: '+15550100777' },
      'operator',
    );
    erasures.push({ accountId: account.id, id: asked.id });
  }
  // Every one is through its first pass and waiting out the (ten-minute) settle time at once.
  await waitUntil(async () => {
    const steps = await Promise.all(erasures.map((e) => stepOf(store, e.accountId, e.id)));
    return steps.every((step) => step === SETTLING) ? steps : undefined;
  }, 'every erasure to be in its settle wait');
});

it('runs an account’s erasures one after another, in the order they were accepted, across monitors', async () => {
  const p = await openPipeline(ctx, pg);
  const { store } = p;
  const account = await store.accounts.create({ name: 'Busy Telecom' });
  const first = await store.erasures.request(
    account.id,
    { kind: 'number', value: '+15550100701' },
    'operator',
  );
  const second = await store.erasures.request(account.id, { kind: 'call_id', value: 'call-702' }, 'operator');
  // Another monitor runs the first: this one must not start the second meanwhile.
  expect(await store.erasures.lease(first.id, 'another-monitor', 60_000)).toBe(true);
  const monitor = erasingMonitor(store.erasures);
  p.run({
    deliveryTimeoutMs: 5000,
    monitor: { ...monitor, erasures: { ...monitor.erasures, settleMs: 1500 } },
  });
  const stillWaiting = async () => {
    // The monitor looks every 100 ms: several passes go by, and none starts the second.
    for (let i = 0; i < 6; i++) {
      expect(await stepOf(store, account.id, second.id)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await stillWaiting();
  expect(await stepOf(store, account.id, first.id)).toBe(0);
  // The other monitor is gone: this one takes the first over, and still keeps the second waiting.
  await store.erasures.release(first.id, 'another-monitor');
  await waitUntil(
    async () => ((await stepOf(store, account.id, first.id)) === SETTLING ? true : undefined),
    'the first erasure to be in its settle wait',
  );
  await stillWaiting();
  const firstDone = await erasureDone(store.erasures, account.id, first.id);
  const secondDone = await erasureDone(store.erasures, account.id, second.id);
  expect(Date.parse(secondDone.done_at!)).toBeGreaterThanOrEqual(Date.parse(firstDone.done_at!));
});
