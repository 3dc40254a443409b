import type { Producer } from '@hookline/queue';
import { startReceiver, usePostgres, useRedis, waitUntil } from '@hookline/testing';
import { callEvent as call, erasingMonitor, erasureDone } from './erasure-support';
import { openPipeline, type Pipeline } from './pipeline';

jest.setTimeout(60000);

// An erasure by number accepted while a steady stream of events, every other one of that number, is being
// delivered by the real worker: what was already on the wire may finish, nothing of the number starts later,
// and every other event arrives once, in order.

const ctx = useRedis('erasure-race');
const pg = usePostgres('erasure_race');
const NUMBER = '+15550100999';
let store: Pipeline['store'];
let producer: Producer;
let accountId: string;

beforeEach(async () => {
  const p = await openPipeline(ctx, pg);
  ({ store, producer } = p);
  accountId = (await store.accounts.create({ name: 'Acme Telecom' })).id;
  p.run({ deliveryTimeoutMs: 5000, monitor: erasingMonitor(p.store.erasures) });
});

const acct = () => accountId;

describe('erasure racing deliveries', () => {
  it('no request of an erased event starts after the erasure is accepted; the rest arrive in order', async () => {
    // A slower endpoint, so that events queue up and one is on the wire at any moment.
    const slow = ctx.closeLater(await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 15 })));
    const hookIds: string[] = [];
    for (const path of ['/x', '/y'])
      hookIds.push(
        (
          await store.hooks.create(
            acct(),
            { url: slow.url(path), format: 'json', auth: { scheme: 'none' } },
            'operator',
          )
        ).id,
      );
    const sent: string[] = [];
    const pace = () => new Promise((resolve) => setTimeout(resolve, 10)); // about 100 events a second
    // Before the erasure, every other event is the number's; after, none is (what is accepted later is new data).
    for (let i = 0; i < 60; i += 1) {
      const mine = i % 2 === 0;
      await producer.publish(acct(), call(`r${i}`, mine ? NUMBER : `+1${i}`, '+4420'));
      sent.push(`r${i}`);
      await pace();
    }
    const arrivedBefore = slow.requests.length;
    const { id } = await store.erasures.request(acct(), { kind: 'number', value: NUMBER }, 'operator');
    const acceptedAt = slow.requests.length;
    for (let i = 60; i < 100; i += 1) {
      await producer.publish(acct(), call(`r${i}`, `+1${i}`, '+4420'));
      sent.push(`r${i}`);
      await pace();
    }
    await erasureDone(store.erasures, acct(), id);
    const others = sent.filter(
      (callId) => Number(callId.slice(1)) % 2 === 1 || Number(callId.slice(1)) >= 60,
    );
    await slow.waitFor(arrivedBefore + 1); // something was still to come when it was accepted
    await waitUntil(async () => {
      const paths = ['/x', '/y'].map((p) => slow.requests.filter((r) => r.path === p).map(callIdOf));
      return paths.every((got) => others.every((c) => got.includes(c)));
    }, 'every other event to reach both hooks');

    for (const path of ['/x', '/y']) {
      const got = slow.requests.filter((r) => r.path === path);
      const ids = got.map(callIdOf);
      // The rest: all of them, each once, in order.
      expect(ids.filter((c) => others.includes(c))).toEqual(others);
      // Of the number's events, only one already on the wire when the erasure was accepted may arrive later.
      const late = got.filter((r) => slow.requests.indexOf(r) >= acceptedAt).map(callIdOf);
      expect(late.filter((c) => !others.includes(c)).length).toBeLessThanOrEqual(1);
    }
    // What was not sent is recorded `erased` on its hook (removed from the queue, or refused by the fence).
    for (const hookId of hookIds) {
      const log = await store.deliveryLog.list(hookId, 200);
      const mineSent = slow.requests
        .filter((r) => r.path === (hookId === hookIds[0] ? '/x' : '/y'))
        .map(callIdOf)
        .filter((c) => !others.includes(c)).length;
      expect(log.filter((r) => r.outcome === 'erased')).toHaveLength(30 - mineSent);
    }
  });
});

const callIdOf = (r: { body: Buffer }) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id;
