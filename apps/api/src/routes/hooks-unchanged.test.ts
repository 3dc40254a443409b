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
});
