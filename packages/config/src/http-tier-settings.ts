import { int, setting } from './setting-parsers';

/**
 * The HTTP tier's deadlines (product.md §8: a client that trickles or stalls cannot hold a connection for ever).
 * loadConfig checks the headers timeout against the request timeout, which Node requires.
 */
export const httpTierSettings = {
  // With the rest of the shutdown, the drain must fit the orchestrator's grace (Kubernetes: 30 s).
  HOOKLINE_HTTP_DRAIN_MS: setting(
    int(10000, 0, 120000),
    'on SIGTERM, how long the HTTP tier lets requests in flight finish before it closes every connection ' +
      'left (`0`–`120000`)',
  ),
  HOOKLINE_HTTP_HEADERS_TIMEOUT_MS: setting(
    int(10000, 1000, 120000),
    'the HTTP tier closes a connection whose request headers have not all arrived this long after it opened ' +
      '(a slow or stalled client holds nothing for longer); at most `HOOKLINE_HTTP_REQUEST_TIMEOUT_MS`',
  ),
  HOOKLINE_HTTP_REQUEST_TIMEOUT_MS: setting(
    int(30000, 1000, 600000),
    'the HTTP tier answers `408` and closes the connection when a whole request (headers and body) has not ' +
      'arrived this long after it started; at least `HOOKLINE_HTTP_HEADERS_TIMEOUT_MS`',
  ),
};
