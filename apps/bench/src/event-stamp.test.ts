import { buildDeliveryRequest } from '@hookline/core';
import { readStamp, stampedCallId } from './event-stamp';

describe('the publish stamp in call_id', () => {
  it('survives the JSON encoder the worker uses', () => {
    const request = buildDeliveryRequest(
      { url: 'http://127.0.0.1:1/h/0', format: 'json', auth: { scheme: 'none' } },
      {
        id: 'evt_1',
        type: 'call_created',
        fields: {
          EventType: 'call_created',
          call_id: stampedCallId(123456789.4),
          direction: 'outbound',
          from: 'bench',
          from_cnam: 'Bench',
          to: '78791245',
          rate: '0.0',
          date: '2016-03-01T08:31:55.0000000',
        },
      },
      { eventTypeHeader: 'X-Service-Event-Type', userAgent: 'test' },
    );
    expect(readStamp(request.body)).toBe(123456789);
  });

  it('is absent from bodies the bench did not stamp', () => {
    expect(readStamp('{"EventType":"call_created","call_id":"9309b4a2-d59f"}')).toBeUndefined();
    expect(readStamp('{"call_id":"bench-"}')).toBeUndefined();
  });
});
