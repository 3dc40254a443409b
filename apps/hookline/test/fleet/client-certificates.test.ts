import type { AttemptRecord } from '@hookline/core';
import { makeTestPki, waitUntil, type TestPki } from '@hookline/testing';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { useHookline } from './harness';

// Per-hook client certificates end to end: an endpoint that requires one from its own CA, as a bank's does.
describe('client certificates (mutual TLS)', () => {
  const h = useHookline();
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki('mtls.example.com');
  });

  async function endpoint() {
    const seen: string[] = [];
    const server = createServer(
      { ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        seen.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
        req.resume();
        req.on('end', () => res.end('ok'));
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    h.ctx.onCleanup(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    return { seen, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhook` };
  }

  const recordOf = async (accountId: string, hookId: string) => {
    const [line] = await waitUntil(async () => {
      const log = await h.deliveries(hookId);
      return log.length > 0 ? log : undefined;
    }, 'the record');
    return (await h.reader.attempt(accountId, hookId, line!.attempt_id)) as AttemptRecord;
  };

  it("delivers with the hook's certificate and records its subject", async () => {
    const { seen, url } = await endpoint();
    const account = await h.account();
    const hook = await h.hook(account.id, { url, tls: { ...pki.client, ca: pki.ca } });
    h.startWorker();
    h.startMonitor();
    await h.publish(account.id);
    await waitUntil(() => seen.length === 1, 'the delivery');
    // In the database, not only in the outbox: the history writer has moved it.
    await waitUntil(
      async () =>
        (await h.history.client.query('SELECT 1 FROM attempts WHERE hook_id = $1', [hook.id])).length,
      'the record in the history database',
    );
    expect(seen).toEqual(['hookline-client']);
    const record = await recordOf(account.id, hook.id);
    expect(record.outcome).toBe('delivered');
    expect(record.request!.client_certificate).toBe('CN=hookline-client, O=Acme');
    expect(JSON.stringify(record)).not.toContain('PRIVATE KEY');
  });

  it('with a certificate the endpoint does not accept: outcome error, the reason in words', async () => {
    const { seen, url } = await endpoint();
    const account = await h.account();
    const hook = await h.hook(account.id, { url, tls: { ...pki.stranger, ca: pki.ca } });
    h.startWorker();
    await h.publish(account.id);
    const record = await recordOf(account.id, hook.id);
    expect(record.outcome).toBe('error');
    expect(record.error).toMatch(
      /^the endpoint refused the TLS connection before answering; it most likely did not accept the client certificate CN=stranger/,
    );
    expect(seen).toEqual([]);
  });
});
