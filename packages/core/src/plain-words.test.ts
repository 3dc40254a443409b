import { plainWords, utcInWords } from './plain-words';

describe('plain words for customers', () => {
  it('says recorded times, actors and error codes in words', () => {
    expect(
      plainWords(
        'discarded by customer:acct_mwx81a2b when the hook was re-enabled: accepted before 2026-11-25T19:52:03.120Z',
      ),
    ).toBe(
      'discarded by the customer when the hook was re-enabled: accepted before 25 Nov 2026, 19:52:03 UTC',
    );
    expect(plainWords('ECONNREFUSED 127.0.0.1:443')).toBe('the endpoint refused the connection');
    expect(plainWords('paused by admin:ops')).toBe('paused by an administrator');
    expect(plainWords('discarded by operator when the hook was re-enabled')).toBe(
      'discarded by your provider when the hook was re-enabled',
    );
    expect(plainWords('HTTP 503 Service Unavailable')).toBe('HTTP 503 Service Unavailable');
    expect(utcInWords('2016-03-01T08:31:55Z')).toBe('1 Mar 2016, 08:31:55 UTC');
  });

  it('keeps the sentence around a code in words, its closing bracket too', () => {
    // As the deliverer records an endpoint that refused a client certificate; the attempt page shows it so.
    expect(
      plainWords(
        'the endpoint refused the TLS connection before answering; it most likely did not accept the client ' +
          'certificate CN=stranger (UND_ERR_SOCKET: other side closed)',
      ),
    ).toBe(
      'the endpoint refused the TLS connection before answering; it most likely did not accept the client ' +
        'certificate CN=stranger (the connection was closed before an answer)',
    );
  });

  it('tells an endpoint certificate hookline could not verify from a failed handshake', () => {
    // A hook whose own CA (tls.ca) did not sign the endpoint's certificate, or a public endpoint's broken chain.
    expect(plainWords('SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain')).toBe(
      'the endpoint’s TLS certificate could not be verified',
    );
    expect(
      plainWords("ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames"),
    ).toBe('the endpoint’s TLS certificate could not be verified');
    expect(plainWords('ERR_SSL_WRONG_VERSION_NUMBER: wrong version number')).toBe(
      'the TLS handshake with the endpoint failed',
    );
  });
});
