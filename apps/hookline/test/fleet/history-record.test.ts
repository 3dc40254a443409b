import type { AttemptRecord } from '@hookline/core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// What the history keeps of an attempt (product.md §10), end to end through the real worker and the monitor's
// history writer into PostgreSQL: the request exactly as the endpoint received it, credentials masked.
describe('the history record of an attempt', () => {
  const h = useHookline();

  async function deliverAndRecord(auth: Parameters<typeof h.hook>[1]['auth'], format: 'json' | 'form') {
    const receiver = await startReceiver(() => ({
      kind: 'status',
      status: 201,
      body: 'thanks\u0000!',
      headers: { 'X-Request-Id': 'rq-42', 'Set-Cookie': 'sid=s3ss10n; HttpOnly' },
    }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/webhook?src=hl'), format, auth });
    h.startWorker();
    h.startMonitor();
    await h.publish(account.id, { call_id: 'call-42' });
    await receiver.waitFor(1);
    // In the database, not only in the outbox: the writer has moved it.
    await waitUntil(
      async () =>
        (await h.history.client.query('SELECT 1 FROM attempts WHERE hook_id = $1', [hook.id])).length,
      'the record in the history database',
    );
    const [line] = (await h.reader.listForHook(hook.id, {}, { limit: 1 })).data;
    const record = (await h.reader.attempt(account.id, hook.id, line!.attempt_id)) as AttemptRecord;
    return { record, received: receiver.requests[0]!, receiver, hook, account };
  }

  it('keeps every field, and the request as the endpoint received it with the Bearer token masked', async () => {
    const { record, received, receiver, hook, account } = await deliverAndRecord(
      { scheme: 'bearer', token: 'tok_123456789' },
      'json',
    );
    expect(record).toMatchObject({
      attempt_id: expect.stringMatching(/^att_/),
      event_id: expect.stringMatching(/^evt_/),
      event_type: 'call_created',
      call_id: 'call-42',
      trigger: 'auto',
      outcome: 'delivered',
      status_code: 201,
      duration_ms: expect.any(Number),
      response_excerpt: 'thanks\uFFFD!',
      account_id: account.id,
      hook_id: hook.id,
    });
    expect(record.request!.method).toBe('POST');
    expect(record.request!.url).toBe(receiver.url('/webhook?src=hl'));
    expect(Buffer.from(record.request!.body, 'utf8').equals(received.body)).toBe(true);
    const headers = record.request!.headers;
    expect(headers['Authorization']).toBe('Bearer ••••6789');
    for (const [name, value] of Object.entries(headers))
      if (name !== 'Authorization')
        expect([name, received.headers[name.toLowerCase()]]).toEqual([name, value]);
    expect(JSON.stringify(record)).not.toContain('tok_123456789');
    // The response's headers as the endpoint sent them, first in order; a cookie keeps its name only.
    expect(Object.entries(record.response_headers!).slice(0, 2)).toEqual([
      ['x-request-id', 'rq-42'],
      ['set-cookie', 'sid=••••'],
    ]);
    expect(JSON.stringify(record)).not.toContain('s3ss10n');
  });

  it('masks Basic credentials entirely, and keeps the form body byte for byte', async () => {
    const { record, received } = await deliverAndRecord(
      { scheme: 'basic', username: 'jonas', password: 'pä55:word' },
      'form',
    );
    expect(record.request!.headers['Authorization']).toBe('Basic ••••');
    expect(record.request!.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Buffer.from(record.request!.body, 'utf8').equals(received.body)).toBe(true);
    const stored = JSON.stringify(record);
    expect(stored).not.toContain('pä55');
    expect(stored).not.toContain(Buffer.from('jonas:pä55:word').toString('base64'));
  });

  it("records the test button's sample event with trigger test", async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    h.startWorker();
    await h.producer.publishTest(account.id, hook.id);
    const [line] = await waitUntil(async () => {
      const data = (await h.reader.listForHook(hook.id, {}, { limit: 5 })).data;
      return data.length > 0 ? data : undefined;
    }, 'the test delivery to be recorded');
    expect(line).toMatchObject({
      trigger: 'test',
      outcome: 'delivered',
      call_id: expect.stringMatching(/^test-/),
    });
    // The endpoint's owner reads this body (and so does the attempt's page): it names no product, so an
    // operator's brand (product.md §16) is never contradicted by the word hookline.
    const body = receiver.requests[0]!.body.toString('utf8');
    expect(JSON.parse(body)).toMatchObject({ from: 'test', from_cnam: 'Test event' });
    expect(body).not.toMatch(/hookline/i);
  });
});
