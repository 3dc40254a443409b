import { newId, type DeliverableEvent } from '@hookline/core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// Send again (product.md §11): explicit, never automatic. The same event — same id, same body — joins the tail
// of the hook's queue and is delivered once, in sequence, recorded with trigger `manual`.
describe('send again', () => {
  const h = useHookline();

  it('delivers a failed attempt again after the events queued before it, once, same id and body', async () => {
    const receiver = await startReceiver((_req, index) => ({
      kind: 'status',
      status: index === 0 ? 500 : 200,
      delayMs: 100,
    }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    h.startWorker();
    await h.publish(account.id, { call_id: 'first' });
    const [failed] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 1 ? log : undefined;
    }, 'the first attempt to be recorded');
    expect(failed).toMatchObject({ outcome: 'failed', status_code: 500 });

    await h.publish(account.id, { call_id: 'second' });
    await h.publish(account.id, { call_id: 'third' });
    const original = await h.reader.attempt(account.id, hook.id, failed!.attempt_id);
    const event: DeliverableEvent = {
      id: original!.event_id,
      type: 'call_created',
      fields: original!.event_fields!,
    };
    const again = newId('att');
    await h.producer.resend(account.id, hook.id, event, again);

    await receiver.waitFor(4);
    const calls = receiver.requests.map(
      (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
    );
    expect(calls).toEqual(['first', 'second', 'third', 'first']);
    expect(receiver.requests[3]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    const record = await waitUntil(
      () => h.reader.attempt(account.id, hook.id, again),
      'the send-again to be recorded under the id it was given',
    );
    expect(record).toMatchObject({
      attempt_id: again,
      event_id: failed!.event_id,
      trigger: 'manual',
      outcome: 'delivered',
    });
    // Once: nothing more arrives, and the first attempt's record is still the failure it was.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests).toHaveLength(4);
    expect((await h.deliveries(hook.id)).map((r) => [r.call_id, r.trigger, r.outcome])).toEqual([
      ['first', 'manual', 'delivered'],
      ['third', 'auto', 'delivered'],
      ['second', 'auto', 'delivered'],
      ['first', 'auto', 'failed'],
    ]);
  });

  it('holds a send-again while the hook is suspended, like any event', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    h.startWorker();
    await h.publish(account.id, { call_id: 'only' });
    const [done] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 1 ? log : undefined;
    }, 'the attempt to be recorded');
    await h.hookQueues.pause(hook.id);
    const original = await h.reader.attempt(account.id, hook.id, done!.attempt_id);
    await h.producer.resend(
      account.id,
      hook.id,
      { id: original!.event_id, type: 'call_created', fields: original!.event_fields! },
      newId('att'),
    );
    expect(await h.hookQueues.waitingCount(hook.id)).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });
});
