import {
  buildDeliveryRequest,
  deliveryUserAgent,
  previewDeliveryRequest,
  USER_AGENT,
} from './delivery-request';
import type { DeliverableEvent } from './event-kinds';
import { SAMPLE_CALL_CREATED } from './samples';

// The example of product.md §3, field for field.
const event = (overrides: Record<string, string> = {}): DeliverableEvent => ({
  ...SAMPLE_CALL_CREATED,
  fields: { ...SAMPLE_CALL_CREATED.fields, ...overrides },
});
const options = { eventTypeHeader: 'X-Service-Event-Type', userAgent: 'hookline/0.1' };
const url = 'https://www.example.com/webhook';

describe('buildDeliveryRequest', () => {
  it('encodes the product example as JSON byte for byte', () => {
    const req = buildDeliveryRequest({ url, format: 'json', auth: { scheme: 'none' } }, event(), options);
    expect(req.url).toBe(url);
    expect(req.body).toBe(
      '{"EventType":"call_created","call_id":"9309b4a2-d59f","direction":"outbound","from":"jonas1","from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}',
    );
    expect(req.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'X-Service-Event-Type': 'call_created',
      'User-Agent': 'hookline/0.1',
    });
  });

  it('adds traceparent and tracestate last only when given a trace context (HOOKLINE_TRACE_PROPAGATE)', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const target = { url, format: 'json', auth: { scheme: 'bearer', token: 't0ken' } } as const;
    const traced = buildDeliveryRequest(target, event(), {
      ...options,
      traceContext: { traceparent, tracestate: 'pbx=7' },
    });
    expect(Object.entries(traced.headers)).toEqual([
      ['Content-Type', 'application/json; charset=utf-8'],
      ['X-Service-Event-Type', 'call_created'],
      ['Authorization', 'Bearer t0ken'],
      ['User-Agent', 'hookline/0.1'],
      ['traceparent', traceparent],
      ['tracestate', 'pbx=7'],
    ]);
    expect(
      buildDeliveryRequest(target, event(), { ...options, traceContext: { traceparent } }).headers,
    ).not.toHaveProperty('tracestate');
    expect(Object.keys(buildDeliveryRequest(target, event(), options).headers)).toEqual([
      'Content-Type',
      'X-Service-Event-Type',
      'Authorization',
      'User-Agent',
    ]);
  });

  it('encodes the product example as a form byte for byte', () => {
    const req = buildDeliveryRequest({ url, format: 'form', auth: { scheme: 'none' } }, event(), options);
    expect(req.body).toBe(
      'EventType=call_created&call_id=9309b4a2-d59f&direction=outbound&from=jonas1&from_cnam=Jonas+1&to=78791245&rate=0.0&date=2016-03-01T08%3A31%3A55.0000000',
    );
    expect(req.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
  });

  it('keeps the decimal text of rate in both formats', () => {
    const json = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'none' } },
      event({ rate: '0.0100' }),
      options,
    );
    const form = buildDeliveryRequest(
      { url, format: 'form', auth: { scheme: 'none' } },
      event({ rate: '0.0100' }),
      options,
    );
    expect(json.body).toContain('"rate":0.0100,');
    expect(form.body).toContain('&rate=0.0100&');
  });

  it('names the event type header as configured', () => {
    const req = buildDeliveryRequest({ url, format: 'json', auth: { scheme: 'none' } }, event(), {
      ...options,
      eventTypeHeader: 'X-Acme-Event',
    });
    expect(req.headers['X-Acme-Event']).toBe('call_created');
    expect(req.headers['X-Service-Event-Type']).toBeUndefined();
  });

  it("keeps the event's kind in its header when a stored extra header has that name (the setting renamed since)", () => {
    for (const name of ['X-Other-Kind', 'x-other-kind']) {
      const req = buildDeliveryRequest(
        { url, format: 'json', auth: { scheme: 'none' }, headers: { [name]: 'mine', 'X-Tenant': 'acme' } },
        event(),
        { ...options, eventTypeHeader: 'X-Other-Kind' },
      );
      expect(req.headers).toEqual({
        'Content-Type': 'application/json; charset=utf-8',
        'X-Other-Kind': 'call_created',
        'X-Tenant': 'acme',
        'User-Agent': 'hookline/0.1',
      });
    }
  });

  it('sends a bearer token exactly', () => {
    const req = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'bearer', token: 'tok_abc.123-XYZ' } },
      event(),
      options,
    );
    expect(req.headers['Authorization']).toBe('Bearer tok_abc.123-XYZ');
  });

  it('sends Basic as base64 of the UTF-8 bytes of user:pass (RFC 7617)', () => {
    const ascii = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'basic', username: 'Aladdin', password: 'open sesame' } },
      event(),
      options,
    );
    expect(ascii.headers['Authorization']).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');

    // RFC 7617 §2.1's own example of the UTF-8 charset: "test" / "123£" -> dGVzdDoxMjPCow==
    const utf8 = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'basic', username: 'test', password: '123£' } },
      event(),
      options,
    );
    expect(utf8.headers['Authorization']).toBe('Basic dGVzdDoxMjPCow==');
    const emoji = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'basic', username: 'jonas', password: 'pässwörd🔑' } },
      event(),
      options,
    );
    const encoded = emoji.headers['Authorization']!.slice('Basic '.length);
    expect(Buffer.from(encoded, 'base64').toString('utf8')).toBe('jonas:pässwörd🔑');
  });

  it('lists the headers in a stable order: type, event type, authorization, user agent', () => {
    const req = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'bearer', token: 't' } },
      event(),
      options,
    );
    expect(Object.keys(req.headers)).toEqual([
      'Content-Type',
      'X-Service-Event-Type',
      'Authorization',
      'User-Agent',
    ]);
  });
});

describe('previewDeliveryRequest', () => {
  it('shows the same request with the bearer token masked to its last 4 characters', () => {
    const real = buildDeliveryRequest(
      { url, format: 'form', auth: { scheme: 'bearer', token: 'secret-token-abcd' } },
      event(),
      options,
    );
    const preview = previewDeliveryRequest(
      { url, format: 'form', auth: { scheme: 'bearer', token_last4: 'abcd' } },
      event(),
      options,
    );
    expect(preview.headers['Authorization']).toBe('Bearer ••••abcd');
    expect({ ...preview, headers: { ...preview.headers, Authorization: undefined } }).toEqual({
      ...real,
      headers: { ...real.headers, Authorization: undefined },
    });
  });

  it("shows a hook's extra headers where and as they are sent", () => {
    const headers = { 'X-Api-Key': 'k_123', 'X-Tenant': 'acme' };
    const real = buildDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'none' }, headers },
      event(),
      options,
    );
    const preview = previewDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'none' }, headers },
      event(),
      options,
    );
    expect(preview).toEqual(real);
    expect(Object.keys(preview.headers)).toEqual([
      'Content-Type',
      'X-Service-Event-Type',
      'X-Api-Key',
      'X-Tenant',
      'User-Agent',
    ]);
  });

  it('never shows any part of a Basic credential', () => {
    const preview = previewDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'basic', username: 'jonas', password_last4: 'word' } },
      event(),
      options,
    );
    expect(preview.headers['Authorization']).toBe('Basic ••••');
  });

  it('has no Authorization header without credentials', () => {
    const preview = previewDeliveryRequest(
      { url, format: 'json', auth: { scheme: 'none' } },
      event(),
      options,
    );
    expect(preview.headers).not.toHaveProperty('Authorization');
  });
});

describe('deliveryUserAgent', () => {
  // RFC 9110 §10.1.5: product = token ["/" product-version]; token = 1*tchar.
  const PRODUCT = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

  it('is hookline/<version> without a brand', () => {
    expect(deliveryUserAgent(undefined)).toBe(USER_AGENT);
    expect(USER_AGENT).toBe('hookline/0.1');
  });

  it.each([
    ['Voxtel Connect', 'Voxtel-Connect-Webhooks/1.0'],
    ['Téléphonie Éclair', 'Telephonie-Eclair-Webhooks/1.0'],
    ['  A&B (Cloud) / PBX  ', 'A-B-Cloud-PBX-Webhooks/1.0'],
    ['電話', 'Webhooks/1.0'],
  ])('names the brand %j as a valid product token', (brand, agent) => {
    expect(deliveryUserAgent(brand)).toBe(agent);
    expect(agent).toMatch(PRODUCT);
  });
});
