import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

export interface TestPki {
  /** The test CA's certificate (PEM). */
  readonly ca: string;
  /** A server certificate from the CA for `serverName` and 127.0.0.1. */
  readonly server: TestCertificate;
  /** A client certificate from the CA, subject CN=`clientName`. */
  readonly client: TestCertificate;
  /** A self-signed client certificate no server of the test trusts. */
  readonly stranger: TestCertificate;
}

/**
 * A small PKI made for one test with the openssl CLI (EC P-256, valid for `days`): a CA, a server certificate
 * and a client certificate it signed, and a stranger's self-signed client certificate.
 */
export function makeTestPki(serverName: string, clientName = 'hookline-client', days = 2): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-pki-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const issue = (name: string, subject: string, extensions: string) => {
    openssl('req', ...newKey, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', subject);
    writeFileSync(at(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at(`${name}.pem`),
      '-days',
      String(days),
      '-extfile',
      at(`${name}.ext`),
    );
    return { cert: readFileSync(at(`${name}.pem`), 'utf8'), key: readFileSync(at(`${name}.key`), 'utf8') };
  };
  try {
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-subj',
      '/CN=hookline test CA',
      '-days',
      String(days),
    );
    const server = issue(
      'server',
      `/CN=${serverName}`,
      `subjectAltName=DNS:${serverName},IP:127.0.0.1\nextendedKeyUsage=serverAuth\n`,
    );
    const client = issue('client', `/CN=${clientName}/O=Acme`, 'extendedKeyUsage=clientAuth\n');
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      at('stranger.key'),
      '-out',
      at('stranger.pem'),
      '-subj',
      '/CN=stranger',
      '-days',
      String(days),
    );
    return {
      ca: readFileSync(at('ca.pem'), 'utf8'),
      server,
      client,
      stranger: {
        cert: readFileSync(at('stranger.pem'), 'utf8'),
        key: readFileSync(at('stranger.key'), 'utf8'),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
