import { waitUntil } from '@hookline/testing';
import { useWorkerRig } from './support/worker-rig';

// After HOOKLINE_SECRET_KEY changed, a hook's sealed credentials no longer open. The worker used to fail the
// whole drain with the exception, put the hook back at once and take it again: a warn line every few
// milliseconds, forever. Each such attempt is now an outcome: `failed`, naming the cause, nothing sent, one
// record per event, and the failure goes to the outcome stream where the suspension monitor counts it.
describe('a hook whose credentials this worker cannot decrypt', () => {
  const rig = useWorkerRig('unreadable-creds');

  it('fails each event once, naming the cause, and sends nothing', async () => {
    const sealedWith = rig.store();
    // The worker runs with another key, as after HOOKLINE_SECRET_KEY was changed.
    rig.startWorker(rig.store().attempts);

    const account = await sealedWith.accounts.create({ name: 'Rotated' });
    const hook = await sealedWith.hooks.create(
      account.id,
      { url: rig.receiver.url(), format: 'json', auth: { scheme: 'bearer', token: 'tok_secret_123' } },
      'operator',
    );
    for (const callId of ['one', 'two', 'three']) await rig.publish(account.id, callId);
    await waitUntil(
      async () => (await rig.recorded(hook.id)).length === 3,
      'three records in the history outbox',
      20000,
    );
    const queue = rig.hookQueues.open(hook.id);
    rig.ctx.onCleanup(() => queue.close());
    await waitUntil(
      async () => (await queue.getJobCounts('failed')).failed === 3,
      'three failed jobs',
      10000,
    );

    const recorded = await rig.recorded(hook.id);
    expect(recorded.map((r) => [r.event_fields.call_id, r.outcome])).toEqual([
      ['one', 'failed'],
      ['two', 'failed'],
      ['three', 'failed'],
    ]);
    for (const r of recorded)
      expect(r.error).toMatch(/credentials could not be decrypted.*HOOKLINE_SECRET_KEY/);
    expect(rig.receiver.requests).toHaveLength(0);
    // Where the suspension monitor counts failures: one entry per event, not one per spin.
    const stream = await rig.ctx.redis.xrange(rig.keys.outcomes(), '-', '+');
    expect(stream.filter(([, fields]) => fields.includes(hook.id))).toHaveLength(3);
    expect(await rig.ctx.redis.llen(rig.keys.hookHistoryOutbox(hook.id))).toBe(3);
  }, 30000);
});
