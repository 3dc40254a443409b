import type { HookTls } from '@hookline/core';

/**
 * Node's TLS options for a hook's client certificate: presented when the endpoint asks for one; with `ca`, the
 * endpoint's certificate is checked against the hook's CA(s) only (a private CA), else against the public roots.
 */
export function clientTlsOptions(tls: HookTls | undefined): { cert?: string; key?: string; ca?: string } {
  if (!tls) return {};
  return { cert: tls.cert, key: tls.key, ...(tls.ca !== undefined ? { ca: tls.ca } : {}) };
}

// With TLS 1.3 a server checks the client certificate after the client considers the handshake done: a refused
// certificate then shows as a connection closed or reset before any answer (or as the server's TLS alert).
const REFUSAL = /^(UND_ERR_SOCKET|ECONNRESET|EPIPE|ERR_SSL_\w*ALERT)/;

/**
 * An attempt that presented a client certificate and was cut off before any answer: says in words that the
 * endpoint refused the connection, most likely the certificate, naming it by subject.
 */
export function explainCertificateRefusal<R extends { outcome: string; error?: string }>(
  result: R,
  tls: HookTls | undefined,
  subject: () => string,
): R {
  if (!tls || result.outcome !== 'error' || !result.error || !REFUSAL.test(result.error)) return result;
  return {
    ...result,
    error:
      `the endpoint refused the TLS connection before answering; it most likely did not accept the client ` +
      `certificate ${subject()} (${result.error})`,
  };
}
