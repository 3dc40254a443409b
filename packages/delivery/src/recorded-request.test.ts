import {
  buildDeliveryRequest,
  maskAuth,
  maskedAuthorizationHeader,
  recordRequest,
  SAMPLE_CALL_CREATED,
  type HookAuth,
  type SendTarget,
} from '@hookline/core';
import { startReceiver, type Receiver } from '@hookline/testing';
import { createDeliverer, type Deliverer } from './deliverer';

// product.md §10: the history keeps "the exact request sent". The record's headers are core's recordRequest
// of what the deliverer sends; here a real receiver says what arrived on the wire (undici adds host, connection
// and content-length), and the two must be the same list: names, values and order, only credentials masked.
let receiver: Receiver;
let deliverer: Deliverer;
beforeEach(async () => {
  receiver = await startReceiver();
  deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
});
afterEach(async () => {
  await deliverer.close();
  await receiver.close();
});

const pairs = (raw: readonly string[]): [string, string][] =>
  Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!]);

async function sentAndRecorded(target: SendTarget) {
  const event = {
    ...SAMPLE_CALL_CREATED,
    fields: { ...SAMPLE_CALL_CREATED.fields, from_cnam: 'Zoë Ångström' },
  };
  const request = buildDeliveryRequest(target, event, {
    eventTypeHeader: 'X-Service-Event-Type',
    userAgent: 'hookline-test/1',
    sentAt: new Date(),
    traceContext: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
  });
  const result = await deliverer.attempt(request);
  expect(result).toMatchObject({ outcome: 'delivered' });
  const recorded = recordRequest(request, maskedAuthorizationHeader(maskAuth(target.auth)));
  const received = receiver.requests.at(-1)!;
  return { recorded, received, request };
}

describe('the recorded request', () => {
  it.each<[string, HookAuth]>([
    ['a bearer token', { scheme: 'bearer', token: 'tok_123456789' }],
    ['basic credentials', { scheme: 'basic', username: 'acme', password: 's3cret-pass' }],
    ['no credentials', { scheme: 'none' }],
  ])('has the headers the endpoint received, in order, framing included (%s)', async (_what, auth) => {
    const target: SendTarget = {
      url: receiver.url('/hook?src=hl'),
      format: 'json',
      auth,
      headers: { 'X-Api-Key': 'k_123', 'X-Tenant': 'acme eu-1' },
      signing: { current: 'whsec_' + 'a'.repeat(32) },
    };
    // Twice: the second goes over the kept-alive connection of the first.
    for (let i = 0; i < 2; i++) {
      const { recorded, received } = await sentAndRecorded(target);
      const wire = pairs(received.rawHeaders).map(([name, value]) =>
        name.toLowerCase() === 'authorization' ? [name, recorded.headers[name]] : [name, value],
      );
      expect(Object.entries(recorded.headers)).toEqual(wire);
      expect(Object.keys(recorded.headers).slice(0, 2)).toEqual(['host', 'connection']);
      expect(recorded.headers['content-length']).toBe(String(received.body.length));
      if (auth.scheme !== 'none') {
        expect(received.headers.authorization).not.toBe(recorded.headers['Authorization']);
        expect(JSON.stringify(recorded)).not.toMatch(/tok_123456789|s3cret-pass|YWNtZTpzM2NyZXQtcGFzcw/);
      }
    }
  });

  it('has the body’s length in bytes, not characters, in both formats', async () => {
    for (const format of ['json', 'form'] as const) {
      const { recorded, received } = await sentAndRecorded({
        url: receiver.url(`/${format}`),
        format,
        auth: { scheme: 'none' },
      });
      expect(Object.entries(recorded.headers)).toEqual(pairs(received.rawHeaders));
      expect(recorded.headers['content-length']).toBe(String(Buffer.byteLength(recorded.body)));
    }
    // "Zoë Ångström" as JSON is UTF-8: more bytes than characters.
    const json = await sentAndRecorded({ url: receiver.url('/'), format: 'json', auth: { scheme: 'none' } });
    expect(Number(json.recorded.headers['content-length'])).toBeGreaterThan(json.recorded.body.length);
  });
});
