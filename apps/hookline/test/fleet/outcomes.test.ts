import { outcomeFromFields } from '@hookline/queue';
import type { Behaviour } from '@hookline/testing';
import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

describe('outcomes: recorded, never resent, the next event follows', () => {
  const h = useHookline();

  async function run(first: Behaviour, timeoutMs = 15000) {
    const receiver = await startReceiver((_req, index) =>
      index === 0 ? first : { kind: 'status', status: 200 },
    );
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    h.startWorker({ HOOKLINE_DELIVERY_TIMEOUT_MS: timeoutMs });
    await h.publish(account.id, { call_id: 'first' });
    await h.publish(account.id, { call_id: 'second' });
    const log = await waitUntil(
      async () => {
        const l = await h.deliveries(hook.id);
        return l.length === 2 ? l : undefined;
      },
      'both outcomes to be recorded',
      20000,
    );
    // Newest first: the second event was delivered, and the first was sent exactly once.
    expect(log[0]!.outcome).toBe('delivered');
    expect(receiver.requests).toHaveLength(2);
    // Only the failure goes to the suspension monitor's stream; the success ended the streak on the spot.
    const announced = await h.ctx.redis.xrange(h.keys.outcomes(), '-', '+');
    expect(announced.map(([, fields]) => outcomeFromFields(fields))).toEqual([
      expect.objectContaining({ hookId: hook.id, eventId: log[1]!.event_id, outcome: log[1]!.outcome }),
    ]);
    return { first: log[1]!, receiver, hookId: hook.id };
  }

  it('records a 500 as failed', async () => {
    const { first, hookId } = await run({ kind: 'status', status: 500, body: 'upstream broke' });
    expect(first).toMatchObject({ outcome: 'failed', status_code: 500, response_excerpt: 'upstream broke' });
    // What Bull Board shows for the failed job: the outcome, no stack trace with the server's file paths.
    const queue = h.hookQueues.open(hookId);
    const [job] = await queue.getFailed();
    await queue.close();
    expect(job?.failedReason).toBe('failed 500');
    expect((job?.stacktrace ?? []).join('\n')).not.toMatch(/\/|\bat /);
  });

  it('records a 302 as failed and never follows the redirect', async () => {
    const { first, receiver } = await run({
      kind: 'status',
      status: 302,
      headers: { location: '/elsewhere' },
    });
    expect(first).toMatchObject({ outcome: 'failed', status_code: 302 });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/webhook', '/webhook']);
  });

  it('records a connection reset as error', async () => {
    const { first } = await run({ kind: 'reset' });
    expect(first.outcome).toBe('error');
    expect(first.error).toBeTruthy();
  });

  it('records an endpoint that never answers as timed_out at the deadline', async () => {
    const { first } = await run({ kind: 'hang' }, 400);
    expect(first.outcome).toBe('timed_out');
    // The deadline, less the millisecond a timer may fire early by against performance.now().
    expect(first.duration_ms).toBeGreaterThanOrEqual(399);
  });

  it('uses the real 15 s deadline by default', async () => {
    const { first } = await run({ kind: 'hang' });
    expect(first.outcome).toBe('timed_out');
    expect(first.duration_ms).toBeGreaterThanOrEqual(14999);
  }, 40000);
});
