import { startReceiver, waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// The bytes an endpoint receives, end to end: producer -> Redis -> worker -> HTTP.
describe('what the endpoint receives', () => {
  const h = useHookline();

  async function deliverOne(
    hookInput: Parameters<typeof h.hook>[1] extends infer T ? Omit<T & object, 'url'> : never,
    data = {},
  ) {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/webhook'), ...hookInput });
    h.startWorker();
    await h.publish(account.id, data);
    await receiver.waitFor(1);
    return { request: receiver.requests[0]!, receiver, hook };
  }

  /** 'none' once no key of the deleted hook is left (the test fails after 5 s otherwise). */
  const keysLeftOf = (hookId: string) =>
    waitUntil(
      async () => {
        const keys = await h.ctx.redis.keys(`${h.ctx.prefix}:*${hookId}*`);
        return keys.length === 0 ? 'none' : undefined;
      },
      'every key of the deleted hook to be gone',
      5000,
    );

  it('sends the JSON body byte for byte, with the exact headers', async () => {
    const { request, receiver } = await deliverOne({
      format: 'json',
      auth: { scheme: 'bearer', token: 'tok_123456789' },
    });
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/webhook');
    expect(request.headers.host).toBe(`127.0.0.1:${receiver.port}`);
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request.headers['x-service-event-type']).toBe('call_created');
    expect(request.headers.authorization).toBe('Bearer tok_123456789');
    expect(request.body.toString('utf8')).toBe(
      '{"EventType":"call_created","call_id":"9309b4a2-d59f","direction":"outbound","from":"jonas1","from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}',
    );
    expect(request.headers['content-length']).toBe(String(request.body.length));
  });

  it('sends the form body byte for byte, with Basic auth per RFC 7617', async () => {
    const { request } = await deliverOne({
      format: 'form',
      auth: { scheme: 'basic', username: 'jonas', password: 'pä55:word' },
    });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from('jonas:pä55:word', 'utf8').toString('base64')}`,
    );
    expect(request.body.toString('utf8')).toBe(
      'EventType=call_created&call_id=9309b4a2-d59f&direction=outbound&from=jonas1&from_cnam=Jonas+1&to=78791245&rate=0.0&date=2016-03-01T08%3A31%3A55.0000000',
    );
  });

  it('keeps the decimal text of rate and stamps a missing date in the 7-digit shape', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url() });
    h.startWorker();
    await h.producer.publish(account.id, {
      type: 'call_created',
      data: { call_id: 'c1', direction: 'outbound', from: 'a', from_cnam: 'A', to: 'b', rate: '0.0100' },
    });
    await receiver.waitFor(1);
    const body = receiver.requests[0]!.body.toString('utf8');
    expect(body).toContain('"rate":0.0100,');
    expect(body).toMatch(/"date":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}"}$/);
  });

  it('records the delivery in the hook log', async () => {
    const { hook } = await deliverOne({});
    const [record] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length > 0 ? log : undefined;
    }, 'the delivery to be recorded');
    expect(record).toMatchObject({ outcome: 'delivered', status_code: 200, event_type: 'call_created' });
    expect(record!.event_id).toMatch(/^evt_/);
  });

  it('leaves no key of a hook behind once it is deleted after deliveries and its history is written', async () => {
    h.startMonitor();
    const { hook } = await deliverOne({});
    await waitUntil(async () => (await h.deliveries(hook.id)).length > 0, 'the delivery to be recorded');
    expect(await h.store.hooks.remove(hook.account_id, hook.id, 'operator')).toBe(true);
    // The record of the delivery outlives the hook, in PostgreSQL (the outbox was the last key to go).
    await waitUntil(
      async () =>
        (await h.history.client.query('SELECT 1 FROM attempts WHERE hook_id = $1', [hook.id])).length === 1,
      'the record in the history database',
    );
    expect(await keysLeftOf(hook.id)).toBe('none');
  });

  // Every attempt is recorded (product.md §10): the request left before the delete and the endpoint answered it.
  it('records the attempt in flight when its hook is deleted, sends nothing more, and leaves no key', async () => {
    h.startMonitor();
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 1500 }));
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url('/webhook') });
    h.startWorker();
    for (const n of [1, 2, 3]) await h.publish(account.id, { call_id: `del-${n}` });
    await receiver.waitFor(1);
    expect(await h.store.hooks.remove(hook.account_id, hook.id, 'operator')).toBe(true);
    const rows = await waitUntil(async () => {
      const found = await h.history.client.query<{ event_id: string; outcome: string; status_code: number }>(
        'SELECT event_id, outcome, status_code FROM attempts WHERE hook_id = $1',
        [hook.id],
      );
      return found.length > 0 ? found : undefined;
    }, 'the attempt in flight to be recorded');
    expect(rows).toEqual([{ event_id: expect.any(String), outcome: 'delivered', status_code: 200 }]);
    expect(await keysLeftOf(hook.id)).toBe('none');
    expect(receiver.requests).toHaveLength(1);
  });

  it('delivers nothing to a destination forbidden by the network policy, and records it as blocked', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = await h.hook(account.id, { url: receiver.url() });
    h.startWorker({ HOOKLINE_ALLOW_NETWORKS: [] });
    await h.publish(account.id);
    const log = await waitUntil(async () => {
      const l = await h.deliveries(hook.id);
      return l.length > 0 ? l : undefined;
    }, 'the blocked attempt to be recorded');
    expect(log[0]!.outcome).toBe('blocked');
    expect(receiver.requests).toHaveLength(0);
  });
});
