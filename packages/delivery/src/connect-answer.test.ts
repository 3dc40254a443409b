import { connectFailure, parseConnectHead } from './connect-answer';

// Which CONNECT answers charge the endpoint (product.md §17): the real tinyproxy's are exercised in
// deliverer-proxy.test.ts; squid's and the gateway statuses are written here as those proxies send them.
const judge = (head: string) => connectFailure(parseConnectHead(head)!);

describe("a proxy's answer to CONNECT", () => {
  it.each([
    ['tinyproxy, destination refused', 'HTTP/1.0 500 Unable to connect\r\nContent-Type: text/html'],
    ['a gateway that got no valid answer', 'HTTP/1.1 502 Bad Gateway'],
    ['a gateway that timed out', 'HTTP/1.1 504 Gateway Timeout\r\nConnection: close'],
    [
      'squid, destination refused',
      'HTTP/1.1 503 Service Unavailable\r\nServer: squid/5.7\r\nX-Squid-Error: ERR_CONNECT_FAIL 111',
    ],
    ['squid, destination silent', 'HTTP/1.1 503 Service Unavailable\r\nx-squid-error: ERR_CONNECT_TIMEOUT 0'],
  ])("reports the destination unreachable: %s → the endpoint's error", (_name, head) => {
    expect(judge(head)).toBe('destination');
  });

  it.each([
    ['tinyproxy, port not allowed', 'HTTP/1.0 403 Access violation'],
    ['tinyproxy, credentials', 'HTTP/1.0 401 Unauthorized'],
    ['credentials', 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="x"'],
    ['overloaded', 'HTTP/1.1 503 Service Unavailable'],
    ['squid, access denied', 'HTTP/1.1 403 Forbidden\r\nX-Squid-Error: ERR_ACCESS_DENIED 0'],
    ['tinyproxy, its upstream proxy down', 'HTTP/1.0 500 Unable to connect to upstream proxy'],
    ['another internal error', 'HTTP/1.1 500 Internal Server Error'],
  ])('is the proxy’s own refusal: %s → not sent, the event waits', (_name, head) => {
    expect(judge(head)).toBe('proxy');
  });

  it('is not HTTP without a status line', () => {
    expect(parseConnectHead('SSH-2.0-OpenSSH_9.2')).toBeUndefined();
  });
});
