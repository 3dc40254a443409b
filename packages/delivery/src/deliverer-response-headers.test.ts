import { buildDeliveryRequest, SAMPLE_CALL_CREATED } from '@hookline/core';
import { startReceiver, type Receiver } from '@hookline/testing';
import { createDeliverer, type Deliverer } from './deliverer';

// product.md §10: an attempt's record keeps the response's status, headers and the first 4 KiB of its body.
let receiver: Receiver | undefined;
let deliverer: Deliverer;
beforeEach(() => {
  deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
});
afterEach(async () => {
  await deliverer.close();
  await receiver?.close();
  receiver = undefined;
});

const requestTo = (url: string) =>
  buildDeliveryRequest({ url, format: 'json', auth: { scheme: 'none' } }, SAMPLE_CALL_CREATED, {
    eventTypeHeader: 'X-Service-Event-Type',
    userAgent: 'hookline-test/1',
  });

describe("the endpoint's response headers", () => {
  it('are kept in the order received, with cookie values masked and a long value cut visibly', async () => {
    receiver = await startReceiver(() => ({
      kind: 'status',
      status: 429,
      body: 'slow down',
      headers: {
        'Retry-After': '120',
        'X-Request-Id': 'req-7f3a',
        'Set-Cookie': ['session=abc123; Path=/; HttpOnly', 'theme=dark'],
        'X-Long': 'x'.repeat(300),
      },
    }));
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 429, responseExcerpt: 'slow down' });
    const kept = result.responseHeaders!.kept;
    expect(Object.keys(kept).slice(0, 4)).toEqual(['retry-after', 'x-request-id', 'set-cookie', 'x-long']);
    expect(kept['retry-after']).toBe('120');
    expect(kept['x-request-id']).toBe('req-7f3a');
    expect(kept['set-cookie']).toBe('session=••••, theme=••••');
    expect(JSON.stringify(kept)).not.toContain('abc123');
    expect(kept['x-long']).toBe(`${'x'.repeat(256)}… (cut: 300 characters in all)`);
    // Node's own headers follow (date, connection, …).
    expect(Object.keys(kept)).toContain('date');
    expect(result.responseHeaders!.dropped).toBe(0);
  });

  it('past 30 headers, the rest are counted and not kept', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`X-H${i}`, `v${i}`]));
    receiver = await startReceiver(() => ({ kind: 'status', status: 200, headers: many }));
    const result = await deliverer.attempt(requestTo(receiver.url()));
    expect(result.outcome).toBe('delivered');
    const { kept, dropped } = result.responseHeaders!;
    expect(Object.keys(kept)).toHaveLength(30);
    expect(Object.keys(kept)[29]).toBe('x-h29');
    // 10 of ours and Node's own (date, connection, keep-alive, content-length, …).
    expect(dropped).toBeGreaterThanOrEqual(10);
  });
});
