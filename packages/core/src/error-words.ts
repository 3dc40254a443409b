// A delivery's recorded error keeps the system's word (ECONNREFUSED 203.0.113.7:443 …) for operators and the
// API; whatever a customer reads (a page, a suspension reason) says what it means instead.
const PHRASES: [RegExp, string][] = [
  [/^ECONNREFUSED\b/, 'the endpoint refused the connection'],
  [/^(ENOTFOUND|EAI_AGAIN)\b/, 'the host name could not be found'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/, 'the connection was closed before an answer'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/, 'no answer in time'],
  [/^(EHOSTUNREACH|ENETUNREACH)\b/, 'the host could not be reached'],
  [
    /^(ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL)/,
    'the TLS certificate or handshake was not accepted',
  ],
];

/** The recorded error in words, lower case (e.g. "the endpoint refused the connection"); undefined if unknown. */
export function errorInWords(error: string): string | undefined {
  return PHRASES.find(([pattern]) => pattern.test(error))?.[1];
}
