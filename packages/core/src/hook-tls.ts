import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { FieldProblem } from './errors';

/** A hook's client certificate for mutual TLS, PEM as given: the key is write-only and sealed at rest. */
export interface HookTls {
  readonly cert: string;
  readonly key: string;
  /** The endpoint's private CA(s): when given, they replace the public roots for this hook. */
  readonly ca?: string;
}

/** What answers and pages show of a client certificate: never the key. */
export interface ClientCertificateView {
  readonly subject: string;
  readonly issuer: string;
  /** When the certificate stops being valid (ISO 8601). */
  readonly expires_at: string;
  /** True from EXPIRY_WARNING_DAYS before `expires_at` on (and once expired). */
  readonly expires_soon: boolean;
  readonly fingerprint_sha256: string;
  /** Whether the hook trusts its own CA(s) for the endpoint's certificate. */
  readonly private_ca: boolean;
}

/** Customers are warned this long before a client certificate expires. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;
const MAX_PEM = 64 * 1024;
const NOT_BEFORE_SKEW_MS = 5 * 60 * 1000;

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate in a PEM bundle; throws when there is none or one does not parse. */
function certificatesOf(pem: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate');
  return blocks.map((block) => new X509Certificate(block));
}

// A PEM boundary line (RFC 7468): BEGIN or END, and its label. The label is bounded, so one pass over the text
// finds them all (a pattern spanning whole blocks would rescan the text from every BEGIN left unclosed).
const PEM_BOUNDARY = /-----(BEGIN|END) ([^\r\n]{0,40}?)-----/g;
// A label shown back in an answer: the usual upper-case words, never other text of the field.
const SHOWN_LABEL = /^[A-Z0-9 ]{1,40}$/;

interface PemLayout {
  /** The label of every BEGIN line, in order. */
  readonly labels: readonly string[];
  /** A BEGIN without its END (or an END of another label): a block cut short. */
  readonly unclosed: boolean;
  /** Everything outside the blocks. */
  readonly outside: string;
}

function pemLayout(text: string): PemLayout {
  const labels: string[] = [];
  let open: string | undefined;
  let unclosed = false;
  let outside = '';
  let after = 0;
  for (const match of text.matchAll(PEM_BOUNDARY)) {
    const label = match[2] ?? '';
    if (match[1] === 'BEGIN') {
      if (open !== undefined) unclosed = true;
      else outside += text.slice(after, match.index);
      labels.push(label);
      open = label;
    } else if (open === label) {
      open = undefined;
      after = match.index + match[0].length;
    } else unclosed = true;
  }
  if (open !== undefined) unclosed = true;
  else outside += text.slice(after);
  return { labels, unclosed, outside };
}

/**
 * What is wrong with a field that holds certificates only (`cert`, `ca`), or undefined. Node's TLS reads the
 * certificates out of any text, so anything else was taken without a word: a key pasted into the wrong box (a
 * mistake its owner should hear of, though the whole client certificate is sealed and never shown), a chain cut
 * short, a block of another kind. The field's text is never quoted back, only a label. The words name no API
 * field after the first: the website shows them under its own labels.
 */
function certificatesOnlyProblem(field: 'cert' | 'ca', text: string): string | undefined {
  const { labels, unclosed, outside } = pemLayout(text);
  if (labels.length === 0) return undefined; // no PEM at all: "is not a PEM certificate", below
  if (labels.some((label) => label.includes('PRIVATE KEY')))
    return field === 'cert'
      ? 'cert holds a private key: the key goes in a field of its own, this one takes only the certificate (its chain may follow)'
      : "ca holds a private key: this field takes only the endpoint's CA certificates; a client certificate's key goes in a field of its own";
  const other = labels.find((label) => label !== 'CERTIFICATE');
  if (other !== undefined) {
    const named = SHOWN_LABEL.test(other) ? `a ${other} block` : 'a block that is not a certificate';
    return `${field} has ${named}: this field takes only CERTIFICATE blocks`;
  }
  if (unclosed)
    return `${field} has a certificate cut short: a -----BEGIN CERTIFICATE----- line without its -----END CERTIFICATE-----`;
  if (outside.trim() !== '')
    return (
      `${field} has text outside its PEM blocks: give only the -----BEGIN CERTIFICATE----- to ` +
      '-----END CERTIFICATE----- blocks, nothing before, between or after them (such as "Bag Attributes" lines)'
    );
  return undefined;
}

// The subject as one line, as openssl prints it: "CN=hookline, O=Acme".
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

/** The stored facts about a certificate that views need, read once when the hook is saved. */
export interface ClientCertificateFacts {
  readonly subject: string;
  readonly issuer: string;
  readonly not_after: string;
  readonly fingerprint_sha256: string;
  readonly private_ca: boolean;
}

export function clientCertificateFacts(tls: HookTls): ClientCertificateFacts {
  const [cert] = certificatesOf(tls.cert);
  return {
    subject: oneLine(cert!.subject),
    issuer: oneLine(cert!.issuer),
    not_after: new Date(cert!.validTo).toISOString(),
    fingerprint_sha256: cert!.fingerprint256,
    private_ca: tls.ca !== undefined,
  };
}

export function clientCertificateView(facts: ClientCertificateFacts, now: Date): ClientCertificateView {
  return {
    subject: facts.subject,
    issuer: facts.issuer,
    expires_at: facts.not_after,
    expires_soon: Date.parse(facts.not_after) - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS,
    fingerprint_sha256: facts.fingerprint_sha256,
    private_ca: facts.private_ca,
  };
}

const pem = (field: string) =>
  z
    .string({ error: `${field} must be PEM text` })
    .min(1, `${field} must not be empty`)
    .max(MAX_PEM, `${field} must be at most ${MAX_PEM} characters`);

/**
 * `tls: {cert, key, ca?}`, checked as a TLS client would use it: each part parses, the key is the
 * certificate's, and the certificate is valid now. Each problem names its field.
 */
export function hookTlsInput(now: () => Date = () => new Date()) {
  return z
    .strictObject({ cert: pem('cert'), key: pem('key'), ca: pem('ca').optional() })
    .superRefine(
      (tls, ctx) => {
        const problem = (field: string, message: string) =>
          ctx.addIssue({ code: 'custom', path: [field], message });
        // Each part is checked when it came as PEM-sized text, whatever is wrong with the others (a missing key
        // does not hide a bad cert): a 400 names every field at fault.
        const given = (value: unknown): value is string =>
          typeof value === 'string' && value.length > 0 && value.length <= MAX_PEM;
        let cert: X509Certificate | undefined;
        let key: KeyObject | undefined;
        const certProblem = given(tls.cert) ? certificatesOnlyProblem('cert', tls.cert) : undefined;
        if (certProblem) problem('cert', certProblem);
        else if (given(tls.cert))
          try {
            cert = certificatesOf(tls.cert)[0];
          } catch {
            problem('cert', 'cert is not a PEM certificate (-----BEGIN CERTIFICATE-----)');
          }
        if (given(tls.key))
          try {
            key = createPrivateKey(tls.key);
          } catch {
            problem('key', 'key is not an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)');
          }
        const caProblem = given(tls.ca) ? certificatesOnlyProblem('ca', tls.ca) : undefined;
        if (caProblem) problem('ca', caProblem);
        else if (given(tls.ca))
          try {
            certificatesOf(tls.ca);
          } catch {
            problem('ca', 'ca is not one or more PEM certificates (-----BEGIN CERTIFICATE-----)');
          }
        if (!cert) return;
        const at = now().getTime();
        if (Date.parse(cert.validTo) <= at)
          problem('cert', `cert expired on ${new Date(cert.validTo).toISOString()}`);
        // A certificate minted a moment ago on a machine whose clock runs ahead is not refused for it.
        else if (Date.parse(cert.validFrom) > at + NOT_BEFORE_SKEW_MS)
          problem('cert', `cert is not valid before ${new Date(cert.validFrom).toISOString()}`);
        if (key && !cert.checkPrivateKey(key))
          problem('key', "key does not match cert (it is another certificate's key)");
      },
      // Run beside the object's own issues (a missing or mistyped part), on any object.
      { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
    )
    .describe(
      'A client certificate for mutual TLS: cert (PEM, the chain may follow), key (PEM, unencrypted; write-only, ' +
        "never shown again) and optionally ca (PEM: the endpoint's private CA, which then replaces the public " +
        'roots for this hook). Checked when saved: the key must match and the certificate be valid',
    );
}

/**
 * A client certificate is presented in a TLS handshake, which a plain-http URL never has: the certificate would go
 * unused and the events in clear, while the customer believes the endpoint authenticates hookline. Named by the
 * field the request gave (`tls` when it sets a certificate, else `url` when it makes a certified hook plain).
 */
export function clientCertificateUrlProblem(url: string, field: 'tls' | 'url'): FieldProblem | undefined {
  if (!/^http:/i.test(url)) return undefined;
  return field === 'tls'
    ? { field, message: 'a client certificate is presented only over https; the url is http://' }
    : {
        field,
        message:
          'url must be https:// while the hook has a client certificate; remove the certificate to use http://',
      };
}
