import type { HookTls } from '@hookline/core';

/** The client-certificate fields of the hook form; the key is write-only like credentials. */
export const TLS_FORM = {
  shown: 'tls_shown',
  cert: 'tls_cert',
  key: 'tls_key',
  ca: 'tls_ca',
  remove: 'tls_remove',
} as const;

type FormBody = Readonly<Record<string, unknown>>;
const text = (body: FormBody, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
// Browsers send a textarea's line breaks as CRLF; PEM is kept with the LF it is usually written with.
const pem = (body: FormBody, name: string) => text(body, name).replace(/\r\n/g, '\n').trim();

/**
 * What the form asks of the hook's client certificate: nothing (fields left empty, or a form without them:
 * the stored one stays), a new one (certificate and key; the key is never shown, so it is typed again), or
 * none any more (`null`, the remove box on the edit form).
 */
export function tlsFromForm(body: FormBody): HookTls | null | undefined {
  if (text(body, TLS_FORM.shown) !== '1') return undefined;
  if (text(body, TLS_FORM.remove) === '1') return null;
  const cert = pem(body, TLS_FORM.cert);
  const key = pem(body, TLS_FORM.key);
  const ca = pem(body, TLS_FORM.ca);
  if (!cert && !key && !ca) return undefined;
  return { cert, key, ...(ca ? { ca } : {}) };
}

/**
 * The certificate and CA as typed, to show again when the form is refused: they are public, and pasting them
 * again is a chore. A field holding a private key (pasted in the wrong box) is not shown again: the key is
 * write-only wherever it is typed.
 */
export function typedCertificates(body: FormBody): { tls?: { cert: string; ca: string } } {
  const shown = (name: string) => {
    const value = text(body, name);
    return /PRIVATE KEY/.test(value) ? '' : value;
  };
  const tls = { cert: shown(TLS_FORM.cert), ca: shown(TLS_FORM.ca) };
  return tls.cert || tls.ca ? { tls } : {};
}
