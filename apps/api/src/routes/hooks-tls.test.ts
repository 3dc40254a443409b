import { createPublicKey } from 'node:crypto';
import { makeTestPki, type TestPki } from '@hookline/testing';
import { useApi } from '../test-support/api-harness';

// Client certificates over the API: validated at create, the key write-only, the expiry shown.
describe('hook client certificates (API)', () => {
  const api = useApi();
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;
  const base = { url: 'https://mtls.example.com/hook', format: 'json' };
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki('mtls.example.com', 'hookline-client', 30);
  });

  it('answers with the certificate by subject and expiry, never the key; tls: null removes it', async () => {
    const acct = await api.createAccount();
    const created = await api.call('POST', hooksUrl(acct), { ...base, tls: { ...pki.client, ca: pki.ca } });
    expect(created.statusCode).toBe(201);
    expect(created.json().tls).toEqual({
      subject: 'CN=hookline-client, O=Acme',
      issuer: 'CN=hookline test CA',
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expires_soon: false,
      fingerprint_sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      private_ca: true,
    });
    expect(created.body).not.toContain('PRIVATE KEY');
    const hookUrl = `${hooksUrl(acct)}/${created.json().id}`;
    expect((await api.call('GET', hookUrl)).body).not.toContain('PRIVATE KEY');
    const removed = await api.call('PATCH', hookUrl, { tls: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).not.toHaveProperty('tls');
    // The key is a credential: giving one and removing it are credentials changes in the audit log.
    expect((await api.call('PATCH', hookUrl, { tls: pki.client })).statusCode).toBe(200);
    const audit = await api.call('GET', `/v1/accounts/${acct}/audit?limit=2`);
    expect(audit.json().data.map((e: { action: string; detail: unknown }) => [e.action, e.detail])).toEqual([
      ['hook.credentials_changed', { fields: ['tls'] }],
      ['hook.credentials_changed', { fields: ['tls'] }],
    ]);
    expect(audit.body).not.toContain('PRIVATE KEY');
  });

  it('refuses a key that does not match, naming tls.key, and creates nothing', async () => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), {
      ...base,
      tls: { cert: pki.client.cert, key: pki.stranger.key },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: 'tls.key', message: "key does not match cert (it is another certificate's key)" },
    ]);
    expect(res.body).not.toContain('PRIVATE KEY');
    expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
  });

  // A part missing does not hide what is wrong with the others: the customer fixes both at once.
  it('names every part at fault: a missing key beside a cert that is not a certificate', async () => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), { ...base, tls: { cert: 'x', ca: 'y' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual(
      expect.arrayContaining([
        { field: 'tls.key', message: 'is required' },
        { field: 'tls.cert', message: expect.stringMatching(/^cert /) },
        { field: 'tls.ca', message: expect.stringMatching(/^ca /) },
      ]),
    );
    expect(res.json().error.details).toHaveLength(3);
    expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
  });

  // Node's TLS reads the certificates out of any text, so anything else in cert was taken without a word: a
  // private key pasted after the certificate, a block of another kind, text around them.
  describe('cert and ca hold certificates only', () => {
    const OUTSIDE =
      'has text outside its PEM blocks: give only the -----BEGIN CERTIFICATE----- to -----END CERTIFICATE----- ' +
      'blocks, nothing before, between or after them (such as "Bag Attributes" lines)';
    const keyLines = () =>
      pki.client.key.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
    const refused = async (tls: Record<string, string>, field: string, message: string) => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), { ...base, tls });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: `Invalid request: ${field}`,
          details: [{ field, message }],
        },
      });
      expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
      return res;
    };

    it('refuses text after the certificate, naming tls.cert', async () => {
      await refused({ ...pki.client, cert: `${pki.client.cert}\ngarbage\n` }, 'tls.cert', `cert ${OUTSIDE}`);
      await refused(
        { ...pki.client, cert: `Bag Attributes\n${pki.client.cert}` },
        'tls.cert',
        `cert ${OUTSIDE}`,
      );
    });

    it('refuses the private key pasted into cert, telling where it goes, and never shows it', async () => {
      for (const key of [pki.client.key, pki.stranger.key]) {
        const res = await refused(
          { ...pki.client, cert: pki.client.cert + key },
          'tls.cert',
          'cert holds a private key: the key goes in a field of its own, this one takes only the certificate (its chain may follow)',
        );
        expect(res.body).not.toContain('PRIVATE KEY');
        for (const line of keyLines()) expect(res.body).not.toContain(line);
      }
    });

    it('refuses any other PEM block in cert, and a certificate cut short', async () => {
      const publicKey = createPublicKey(pki.client.key).export({ type: 'spki', format: 'pem' }) as string;
      await refused(
        { ...pki.client, cert: pki.client.cert + publicKey },
        'tls.cert',
        'cert has a PUBLIC KEY block: this field takes only CERTIFICATE blocks',
      );
      await refused(
        { ...pki.client, cert: pki.client.cert.replace('-----END CERTIFICATE-----', '') },
        'tls.cert',
        'cert has a certificate cut short: a -----BEGIN CERTIFICATE----- line without its -----END CERTIFICATE-----',
      );
    });

    it('holds ca to the same rule', async () => {
      await refused({ ...pki.client, ca: `${pki.ca}garbage` }, 'tls.ca', `ca ${OUTSIDE}`);
      const res = await refused(
        { ...pki.client, ca: pki.ca + pki.client.key },
        'tls.ca',
        "ca holds a private key: this field takes only the endpoint's CA certificates; a client certificate's key goes in a field of its own",
      );
      expect(res.body).not.toContain('PRIVATE KEY');
    });

    it('refuses a PATCH so, keeping the stored certificate', async () => {
      const acct = await api.createAccount();
      const created = (await api.call('POST', hooksUrl(acct), { ...base, tls: pki.client })).json();
      const hookUrl = `${hooksUrl(acct)}/${created.id}`;
      const res = await api.call('PATCH', hookUrl, {
        tls: { cert: pki.stranger.cert + pki.stranger.key, key: pki.stranger.key },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        {
          field: 'tls.cert',
          message:
            'cert holds a private key: the key goes in a field of its own, this one takes only the certificate (its chain may follow)',
        },
      ]);
      expect((await api.call('GET', hookUrl)).json().tls).toEqual(created.tls);
    });

    it('takes a chain, CRLF line ends and blank lines around the blocks', async () => {
      const acct = await api.createAccount();
      const crlf = (pem: string) => pem.replace(/\r?\n/g, '\r\n');
      for (const tls of [
        { ...pki.client, cert: `${pki.client.cert}\n${pki.ca}` },
        {
          cert: crlf(`\n${pki.client.cert}\n\n${pki.ca}\n`),
          key: crlf(pki.client.key),
          ca: crlf(pki.ca + pki.ca),
        },
      ]) {
        const res = await api.call('POST', hooksUrl(acct), { ...base, tls });
        expect([res.statusCode, res.json().tls?.subject]).toEqual([201, 'CN=hookline-client, O=Acme']);
      }
    });
  });

  it('refuses a client certificate with a plain-http URL, naming the field that was given', async () => {
    const acct = await api.createAccount();
    const tls = { ...pki.client, ca: pki.ca };
    const plain = { ...base, url: 'http://mtls.example.com/hook' };
    // Created so: the certificate would never be presented and the events would travel in clear.
    const created = await api.call('POST', hooksUrl(acct), { ...plain, tls });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.details.map((d: { field: string }) => d.field)).toEqual(['tls']);
    expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);

    const secure = (await api.call('POST', hooksUrl(acct), { ...base, tls })).json();
    const toPlain = await api.call('PATCH', `${hooksUrl(acct)}/${secure.id}`, { url: plain.url });
    expect(toPlain.statusCode).toBe(400);
    expect(toPlain.json().error.details.map((d: { field: string }) => d.field)).toEqual(['url']);
    // Without its certificate, the hook may move to http.
    const both = await api.call('PATCH', `${hooksUrl(acct)}/${secure.id}`, { url: plain.url, tls: null });
    expect(both.statusCode).toBe(200);

    const added = await api.call('PATCH', `${hooksUrl(acct)}/${secure.id}`, { tls });
    expect(added.statusCode).toBe(400);
    expect(added.json().error.details.map((d: { field: string }) => d.field)).toEqual(['tls']);
  });
  it('never ends with a certificate on a plain-http url, however two changes interleave', async () => {
    const acct = await api.createAccount();
    const tls = { ...pki.client, ca: pki.ca };
    const hook = (await api.call('POST', hooksUrl(acct), base)).json();
    const hookUrl = `${hooksUrl(acct)}/${hook.id}`;
    // One client moves the hook to http while another adds a certificate: each alone is fine.
    const [toPlain, added] = await Promise.all([
      api.call('PATCH', hookUrl, { url: 'http://mtls.example.com/hook' }),
      api.call('PATCH', hookUrl, { tls }),
    ]);
    const after = (await api.call('GET', hookUrl)).json();
    expect([toPlain.statusCode, added.statusCode].sort()).toEqual([200, 400]);
    expect(after.url.startsWith('http:') && after.tls !== undefined).toBe(false);
  });
});
