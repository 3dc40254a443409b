import { readStamp } from '../event-stamp';
import { eventsPath, httpEventBody } from './http-publisher';

describe('publishing through the HTTP API', () => {
  it('sends the call_created shape of the publish API, every field as the seed gives it', () => {
    expect(JSON.parse(httpEventBody(1_234_567))).toEqual({
      type: 'call_created',
      data: {
        call_id: 'bench-1234567',
        direction: 'outbound',
        from: 'jonas1',
        from_cnam: 'Jonas 1',
        to: '78791245',
        rate: '0.0',
        date: '2016-03-01T08:31:55.0000000',
      },
    });
  });

  it('carries the publish stamp where the receivers read it once delivered', () => {
    const delivered = JSON.stringify({ EventType: 'call_created', ...JSON.parse(httpEventBody(42)).data });
    expect(readStamp(delivered)).toBe(42);
  });

  it('posts to the account of the hook', () => {
    expect(eventsPath({ accountId: 'acct_0123' })).toBe('/v1/accounts/acct_0123/events');
  });
});
