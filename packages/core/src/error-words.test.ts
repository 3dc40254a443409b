import {
  deliverySpanStatus,
  failureInWords,
  recordedErrorInWords,
  sentNothingBecause,
  UNREADABLE_CREDENTIALS,
} from './error-words';

// An attempt's failure in words: the customer's (pages, e-mails) and the SRE's (a delivery span's status).
describe('error words', () => {
  it('says why an attempt was not delivered, without codes', () => {
    expect(failureInWords({ outcome: 'failed', status_code: 500 })).toBe('the endpoint answered 500');
    expect(failureInWords({ outcome: 'timed_out', error: 'no response within 15000 ms' })).toBe(
      'the endpoint did not answer in time',
    );
    expect(
      failureInWords({
        outcome: 'error',
        error:
          'no OAuth 2.0 token from http://127.0.0.1:1/token: the token endpoint answered 401; nothing was sent to the endpoint',
      }),
    ).toBe(
      'no OAuth 2.0 token could be had: the token endpoint answered 401; nothing was sent to the endpoint',
    );
  });

  // A page labels such an attempt by what kept it back, not as a connection error of the endpoint's.
  it('tells an attempt that sent nothing from one whose connection failed', () => {
    expect(
      sentNothingBecause(
        'no OAuth 2.0 token from http://127.0.0.1:1/token: the token endpoint answered 401; nothing was sent to ' +
          'the endpoint',
      ),
    ).toBe('no_token');
    expect(
      sentNothingBecause(
        'no OAuth 2.0 token in time from https://auth.example.com/token: it took 15020 ms of the 15000 ms ' +
          'deadline; nothing was sent to the endpoint',
      ),
    ).toBe('no_token');
    expect(
      sentNothingBecause(
        'not sent: the egress proxy 127.0.0.1:3128 refused CONNECT 203.0.113.7:443: 403 Forbidden',
      ),
    ).toBe('kept_back');
    expect(sentNothingBecause(UNREADABLE_CREDENTIALS)).toBe('kept_back');
    expect(sentNothingBecause('ECONNREFUSED 203.0.113.7:443')).toBeUndefined();
    expect(sentNothingBecause(undefined)).toBeUndefined();
  });

  it("says credentials the worker could not decrypt in words a customer can act on, without the setting's name", () => {
    expect(recordedErrorInWords(UNREADABLE_CREDENTIALS)).toBe(
      "the hook's stored credentials could not be read; nothing was sent to the endpoint. Enter them again in " +
        "the hook's settings",
    );
  });

  // Recorded for operators with the token endpoint's address and its RFC 6749 error code; a page says what the
  // customer can check instead.
  it('says a token the deliverer could not get in words, without the address or the OAuth error code', () => {
    const noToken = (why: string) =>
      recordedErrorInWords(
        `no OAuth 2.0 token from http://127.0.0.1:40123/oauth/token: ${why}; nothing was sent to the endpoint`,
      );
    expect(noToken('the token endpoint answered 401 (invalid_client: unknown client)')).toBe(
      'no OAuth 2.0 token could be had: the token endpoint answered 401 (the client id or secret was not ' +
        'accepted); nothing was sent to the endpoint',
    );
    expect(noToken('the token endpoint answered 400 (invalid_scope)')).toBe(
      'no OAuth 2.0 token could be had: the token endpoint answered 400 (the scope was not accepted); nothing ' +
        'was sent to the endpoint',
    );
    expect(noToken('the token endpoint answered 400 (invalid_request: missing grant_type)')).toBe(
      'no OAuth 2.0 token could be had: the token endpoint answered 400; nothing was sent to the endpoint',
    );
    expect(noToken('the answer has no usable access_token')).toBe(
      'no OAuth 2.0 token could be had: the answer has no usable access token; nothing was sent to the endpoint',
    );
    expect(
      recordedErrorInWords(
        'no OAuth 2.0 token in time from https://auth.example.com/token: it took 15020 ms of the 15000 ms ' +
          'deadline; nothing was sent to the endpoint',
      ),
    ).toBe(
      'getting the OAuth 2.0 token took 15020 ms of the 15000 ms a delivery may take; nothing was sent to the ' +
        'endpoint',
    );
    expect(recordedErrorInWords('ECONNREFUSED 203.0.113.7:443')).toBe('the endpoint refused the connection');
    // A sentence hookline wrote for customers itself is not its to reword.
    expect(recordedErrorInWords('discarded by operator when the hook was re-enabled')).toBeUndefined();
  });

  // A notice, a suspension's reason and a refused probe say it as the attempt page does.
  it('says an answer undici could not read as HTTP was not valid HTTP, not a closed connection', () => {
    for (const error of [
      'UND_ERR_SOCKET: bad response',
      'Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)',
    ])
      expect(failureInWords({ outcome: 'error', error })).toBe('the endpoint’s answer was not valid HTTP');
    expect(failureInWords({ outcome: 'error', error: 'UND_ERR_SOCKET: other side closed' })).toBe(
      'the connection was closed before an answer',
    );
  });

  it('gives a span the outcome and its reason: the recorded error, else the outcome in words', () => {
    expect(deliverySpanStatus('delivered', 200, undefined)).toBeUndefined();
    expect(deliverySpanStatus('failed', 500, undefined)).toBe('failed: the endpoint answered 500');
    expect(deliverySpanStatus('error', undefined, 'connect ECONNREFUSED 127.0.0.1:9')).toBe(
      'error: connect ECONNREFUSED 127.0.0.1:9',
    );
    expect(deliverySpanStatus('unknown', undefined, undefined)).toBe(
      'unknown: the attempt was interrupted, and it may or may not have arrived',
    );
  });
});
