import { makeTestPki } from '@hookline/testing';
import { useApi } from '../test-support/api-harness';

// A PATCH whose values the hook already has changes nothing, and must write nothing: it moved updated_at and the
// version, so a customer's edit form opened before it was refused as stale (409) though nothing had changed.

describe('a PATCH that changes nothing', () => {
  const api = useApi();

  it('leaves updated_at (and the version forms are judged by) as they were', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const url = `/v1/accounts/${acct}/hooks/${hook.id}`;
    const signed = await api.call('PATCH', url, { signing: true, description: 'Billing' });
    expect(signed.statusCode).toBe(200);
    const { updated_at: at, signing_secret: secret } = signed.json() as Record<string, unknown>;
    expect(secret).toEqual(expect.stringMatching(/^whsec_/));

    for (const same of [
      { signing: true },
      { description: 'Billing' },
      { format: (signed.json() as { format: string }).format },
      { url: (signed.json() as { url: string }).url, auth: { scheme: 'none' } },
    ]) {
      const res = await api.call('PATCH', url, same);
      expect([JSON.stringify(same), res.statusCode]).toEqual([JSON.stringify(same), 200]);
      const body = res.json() as Record<string, unknown>;
      expect([JSON.stringify(same), body.updated_at, body.signing_secret]).toEqual([
        JSON.stringify(same),
        at,
        undefined,
      ]);
    }
    expect((await api.call('GET', url)).json()).toMatchObject({ updated_at: at, description: 'Billing' });

    // A change still changes it.
    const changed = await api.call('PATCH', url, { description: 'Billing (new)' });
    expect((changed.json() as { updated_at: string }).updated_at).not.toBe(at);
  });

  // The stored credentials are sealed, and opened to compare: the same token or certificate sent again is no
  // credentials change in the audit log (operators review those), and no new version.
  it('credentials or a client certificate given again as they are: no change, no audit entry', async () => {
    const pki = makeTestPki('hooks.example.com', 'hookline-client', 30);
    const acct = await api.createAccount();
    const bearer = { scheme: 'bearer', token: 'SAME-token-1234' };
    const tls = { cert: pki.client.cert, key: pki.client.key, ca: pki.ca };
    const hook = await api.createHook(acct, { url: 'https://hooks.example.com/webhook', auth: bearer, tls });
    const url = `/v1/accounts/${acct}/hooks/${hook.id}`;
    const at = ((await api.call('GET', url)).json() as { updated_at: string }).updated_at;
    const audited = async () =>
      (
        (await api.call('GET', `/v1/accounts/${acct}/audit?limit=50`)).json() as {
          data: { action: string }[];
        }
      ).data
        .map((entry) => entry.action)
        .filter((action) => action !== 'hook.created' && action !== 'account.created');

    for (const same of [
      { auth: bearer },
      { tls },
      { auth: { token: 'SAME-token-1234', scheme: 'bearer' }, tls },
    ]) {
      const res = await api.call('PATCH', url, same);
      expect([res.statusCode, (res.json() as { updated_at: string }).updated_at]).toEqual([200, at]);
    }
    expect(await audited()).toEqual([]);

    // Another token is a credentials change, recorded by name.
    const changed = await api.call('PATCH', url, { auth: { scheme: 'bearer', token: 'OTHER-token-5678' } });
    expect((changed.json() as { updated_at: string }).updated_at).not.toBe(at);
    expect(await audited()).toEqual(['hook.credentials_changed']);
  });
});
