/**
 * Whose failure a proxy's answer to CONNECT (other than 200) reports (product.md §17).
 *
 * - `destination`: the proxy tried the endpoint and could not reach it (refused, reset, no route, timed out).
 *   Nothing was written, but waiting would not help: the endpoint is down, exactly as a direct connection
 *   refused. The attempt is the endpoint's `error`, and counts toward suspension.
 * - `proxy`: the proxy itself would not tunnel (its ACL 403, credentials 401/407, overloaded 503, any other
 *   answer). Not the endpoint's doing: the event is not sent and waits for the proxy.
 *
 * Only answers that say so unambiguously are the destination's, so a proxy fault is never charged to a
 * customer's endpoint:
 * - 502 Bad Gateway and 504 Gateway Timeout: RFC 9110 §15.6.3 / §15.6.5, a gateway that got no valid or no
 *   timely answer from the server it was asked to reach;
 * - tinyproxy's `500 Unable to connect` (its connect(2) to the destination failed; its failure to reach an
 *   upstream proxy is `Unable to connect to upstream proxy`, which stays the proxy's);
 * - squid's `X-Squid-Error: ERR_CONNECT_FAIL …` (its 503 when the destination refuses or cannot be reached;
 *   squid's own 503s carry other error names).
 */
export type ConnectFailure = 'destination' | 'proxy';

export interface ConnectAnswer {
  readonly status: number;
  /** The status line's reason phrase, as sent (may be empty). */
  readonly phrase: string;
  /** Header names in lower case; a repeated header keeps its first value. */
  readonly headers: Readonly<Record<string, string>>;
}

const GATEWAY_STATUSES = new Set([502, 504]);
const SQUID_DESTINATION_ERRORS = new Set(['ERR_CONNECT_FAIL', 'ERR_CONNECT_TIMEOUT', 'ERR_READ_TIMEOUT']);

export function connectFailure(answer: ConnectAnswer): ConnectFailure {
  if (GATEWAY_STATUSES.has(answer.status)) return 'destination';
  if (answer.status === 500 && /^unable to connect$/i.test(answer.phrase.trim())) return 'destination';
  const squid = answer.headers['x-squid-error']?.trim().split(/\s+/)[0]?.toUpperCase();
  if (squid && SQUID_DESTINATION_ERRORS.has(squid)) return 'destination';
  return 'proxy';
}

/** The head of a CONNECT answer (status line and headers, without the blank line), or undefined if it is not HTTP. */
export function parseConnectHead(head: string): ConnectAnswer | undefined {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= line.slice(colon + 1).trim();
  }
  return { status: Number(match[1]), phrase: match[2] ?? '', headers };
}
