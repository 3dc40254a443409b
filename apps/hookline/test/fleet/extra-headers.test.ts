import type { AttemptRecord } from '@hookline/core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// A hook's extra headers (product.md §17) on every request, after hookline's own, and in the history as sent.
describe('extra headers', () => {
  const h = useHookline();

  it('reach the endpoint on every request and are recorded as sent', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, {
      url: receiver.url('/webhook'),
      auth: { scheme: 'bearer', token: 'tok_123456789' },
      headers: { 'X-Api-Key': 'k_123', 'X-Tenant': 'acme eu-1' },
    });
    h.startWorker();
    await h.publish(account.id, { call_id: 'h-1' });
    await h.publish(account.id, { call_id: 'h-2' });
    await receiver.waitFor(2);
    for (const request of receiver.requests)
      expect(request.rawHeaders.slice(4, 16)).toEqual([
        'Content-Type',
        'application/json; charset=utf-8',
        'X-Service-Event-Type',
        'call_created',
        'X-Api-Key',
        'k_123',
        'X-Tenant',
        'acme eu-1',
        'Authorization',
        'Bearer tok_123456789',
        'User-Agent',
        'hookline/0.1',
      ]);
    const [line] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 2 ? log : undefined;
    }, 'both records');
    const record = (await h.reader.attempt(account.id, hook.id, line!.attempt_id)) as AttemptRecord;
    expect(record.request!.headers).toMatchObject({
      'X-Api-Key': 'k_123',
      'X-Tenant': 'acme eu-1',
      Authorization: 'Bearer ••••6789',
    });
  });
});
