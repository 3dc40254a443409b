// A delivery's recorded error keeps the system's word (ECONNREFUSED 203.0.113.7:443 …) for operators and the
// API; whatever a customer reads (a page, a suspension reason) says what it means instead.

/** An answer that is not HTTP, as the deliverer records what it found wrong itself (`…: status 600 is …`). */
export const NOT_HTTP = 'the endpoint’s answer was not valid HTTP';

// A phrase may keep a part of the error (`$1`): the detail of an error hookline recorded in words already.
const PHRASES: [RegExp, string][] = [
  [new RegExp(`^${NOT_HTTP}(: [^;]*)?`), `${NOT_HTTP}$1`],
  [/^ECONNREFUSED\b/, 'the endpoint refused the connection'],
  [/^(ENOTFOUND|EAI_AGAIN)\b/, 'the host name could not be found'],
  // undici's words for an answer it cannot read as HTTP: an unasked `100 Continue` or an answer to nothing
  // (`bad response`), an unasked `101` (`bad upgrade`), and its parser's refusals (`HPE_…`: "Response does
  // not match the HTTP/1.1 protocol (Expected HTTP/, …)"). The endpoint answered: not a closed connection.
  [
    /^(UND_ERR_SOCKET: bad (response|upgrade)|HPE_[A-Z_]+|Response does not match the HTTP\/1\.1 protocol)/,
    NOT_HTTP,
  ],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/, 'the connection was closed before an answer'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b/, 'no answer in time'],
  [/^(EHOSTUNREACH|ENETUNREACH)\b/, 'the host could not be reached'],
  // hookline's check of the endpoint's certificate (its chain, its CA — the hook's own `tls.ca` when given —, its
  // host name, its dates): said apart from a failed handshake, as a customer with a client certificate would
  // otherwise suspect their own.
  [
    /^(ERR_TLS_CERT|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER)/,
    'the endpoint’s TLS certificate could not be verified',
  ],
  [/^(ERR_TLS|ERR_SSL)/, 'the TLS handshake with the endpoint failed'],
];

/** The recorded error in words, lower case (e.g. "the endpoint refused the connection"); undefined if unknown. */
export function errorInWords(error: string): string | undefined {
  const found = PHRASES.find(([pattern]) => pattern.test(error));
  return found && found[0].exec(error)![0].replace(found[0], found[1]);
}

/**
 * Why an attempt was not delivered, as a customer reads it (a suspension's reason, a refused probe): lower case,
 * no error codes, addresses or times. Says when nothing reached the endpoint at all (no OAuth 2.0 token, the
 * egress proxy kept the request back): blaming the endpoint then sends its owner looking in the wrong place.
 */
export function failureInWords(record: {
  readonly outcome: string;
  readonly status_code?: number | undefined;
  readonly error?: string | undefined;
}): string {
  switch (record.outcome) {
    case 'failed':
      return record.status_code !== undefined
        ? `the endpoint answered ${record.status_code}`
        : 'the endpoint did not answer with a success status';
    case 'timed_out':
      return 'the endpoint did not answer in time';
    case 'blocked':
      return 'the endpoint’s address is not allowed by the network policy';
    case 'unknown':
      return 'the attempt was interrupted, and it may or may not have arrived';
    case 'error':
      return errorReason(record.error ?? '');
    default:
      return 'the event was not delivered';
  }
}

// As OAuthTokens (packages/delivery) records a token that could not be had.
const NO_TOKEN = /^no OAuth 2\.0 token from \S+: (.*); nothing was sent to the endpoint$/s;
// As the worker records a token that came too late to send anything within the deadline.
const TOKEN_TOO_LATE =
  /^no OAuth 2\.0 token in time from \S+: it took (\d+) ms of the (\d+) ms deadline; nothing was sent to the endpoint$/;
/**
 * As the worker records an event whose hook's credentials the process cannot decrypt: for the operator, who set
 * another HOOKLINE_SECRET_KEY. A page says what the customer can do instead (recordedErrorInWords).
 */
export const UNREADABLE_CREDENTIALS =
  "the hook's credentials could not be decrypted (HOOKLINE_SECRET_KEY is not the key they were stored " +
  'with); nothing was sent. Set the credentials again (or restore the key)';
// As the deliverer records a request the egress proxy kept back (a probe's, which is not waited for).
const PROXY_REFUSED = /^not sent: the egress proxy\b/;

/**
 * An error the deliverer recorded, in words, lower case: the system's codes (errorInWords) and hookline's own
 * records of an attempt that sent nothing (no OAuth 2.0 token, the egress proxy), which keep the token
 * endpoint's address and its RFC 6749 error code for operators. Undefined for any other text: a sentence
 * hookline wrote for customers already (a discard's reason), or an error it does not know.
 */
export function recordedErrorInWords(error: string): string | undefined {
  const noToken = NO_TOKEN.exec(error);
  if (noToken)
    return `no OAuth 2.0 token could be had: ${tokenWhy(noToken[1]!)}; nothing was sent to the endpoint`;
  const tooLate = TOKEN_TOO_LATE.exec(error);
  if (tooLate)
    return `getting the OAuth 2.0 token took ${tooLate[1]} ms of the ${tooLate[2]} ms a delivery may take; nothing was sent to the endpoint`;
  if (PROXY_REFUSED.test(error))
    return 'the egress proxy did not let the request out; nothing was sent to the endpoint';
  if (error === UNREADABLE_CREDENTIALS)
    return "the hook's stored credentials could not be read; nothing was sent to the endpoint. Enter them again in the hook's settings";
  return errorInWords(error);
}

/**
 * Why an `error` attempt sent nothing to the endpoint, read from hookline's own record of it: `no_token` (no
 * OAuth 2.0 token, or not in time), `kept_back` (the egress proxy, credentials that cannot be read). Undefined
 * for any other error: the request may have left, and the connection failed. A page labels the attempt by it,
 * so an endpoint nothing reached is not said to have failed.
 */
export function sentNothingBecause(error: string | undefined): 'no_token' | 'kept_back' | undefined {
  if (error === undefined) return undefined;
  if (NO_TOKEN.test(error) || TOKEN_TOO_LATE.test(error)) return 'no_token';
  if (PROXY_REFUSED.test(error) || error === UNREADABLE_CREDENTIALS) return 'kept_back';
  return undefined;
}

function errorReason(error: string): string {
  return recordedErrorInWords(error) ?? 'the connection to the endpoint failed';
}

// RFC 6749 §5.2's error codes a client credentials grant meets, as what the token endpoint did not accept: the
// customer then knows which setting to check. Others (`invalid_request`) say nothing a customer can act on.
const TOKEN_REFUSALS: Readonly<Record<string, string>> = {
  invalid_client: 'the client id or secret was not accepted',
  unauthorized_client: 'this client may not use client credentials',
  invalid_scope: 'the scope was not accepted',
  unsupported_grant_type: 'the token endpoint does not offer client credentials',
};

function tokenWhy(why: string): string {
  const status = /^the token endpoint answered (\d{3})(?: \((\w+))?/.exec(why);
  if (status) {
    const refusal = status[2] === undefined ? undefined : TOKEN_REFUSALS[status[2]];
    return `the token endpoint answered ${status[1]}${refusal ? ` (${refusal})` : ''}`;
  }
  if (why.startsWith('blocked: ')) return 'the token endpoint’s address is not allowed by the network policy';
  if (why === 'timed_out' || why.startsWith('no response within'))
    return 'the token endpoint did not answer in time';
  // OAuthTokens' own words about the answer (parseTokenAnswer), which name the field it looked for.
  if (why.startsWith('the ')) return why.replace(/\s*\(.*$/s, '').replace(/\baccess_token\b/, 'access token');
  const words = errorInWords(why);
  return words
    ? words.replace(/\bthe endpoint\b/, 'the token endpoint')
    : 'the token endpoint could not be reached';
}

/**
 * A delivery span's ERROR status, for an outcome other than `delivered`: the outcome and its reason, the error as
 * recorded (an SRE's detail: codes and addresses kept) or, where the outcome has none (`failed` is a status
 * line), the outcome in words ("failed: the endpoint answered 500"). Undefined for a delivered attempt.
 */
export function deliverySpanStatus(
  outcome: string,
  statusCode: number | undefined,
  error: string | undefined,
): string | undefined {
  if (outcome === 'delivered') return undefined;
  return `${outcome}: ${error ?? failureInWords({ outcome, status_code: statusCode })}`;
}
