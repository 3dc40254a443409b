import { useApi } from '../test-support/api-harness';

describe('GET /v1/accounts/{acct}/activity', () => {
  const api = useApi();

  it("lists the account's activity newest first, honouring limit", async () => {
    const acct = await api.createAccount();
    const a = await api.createHook(acct);
    const b = await api.createHook(acct);
    await api.call('PATCH', `/v1/accounts/${acct}/hooks/${a.id}`, { format: 'form' });
    await api.call('DELETE', `/v1/accounts/${acct}/hooks/${b.id}`);

    const all = await api.call('GET', `/v1/accounts/${acct}/activity`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((e: { kind: string; hook_id: string }) => [e.kind, e.hook_id])).toEqual([
      ['hook.deleted', b.id],
      ['hook.updated', a.id],
      ['hook.created', b.id],
      ['hook.created', a.id],
    ]);
    expect(all.json().data[0]).toMatchObject({ actor: 'operator', at: expect.any(String) });

    const two = await api.call('GET', `/v1/accounts/${acct}/activity?limit=2`);
    expect(two.json().data).toHaveLength(2);
  });

  it('never shows credentials given in a change', async () => {
    const acct = await api.createAccount();
    const secret = 'activity-secret-token-9f8e7d';
    await api.createHook(acct, { auth: { scheme: 'bearer', token: secret } });
    const res = await api.call('GET', `/v1/accounts/${acct}/activity`);
    expect(res.body).not.toContain(secret);
  });

  it("shows nothing of another account's activity", async () => {
    const theirs = await api.createAccount('Theirs');
    const hook = await api.createHook(theirs);
    const mine = await api.createAccount('Mine');
    const res = await api.call('GET', `/v1/accounts/${mine}/activity`);
    expect(res.json().data).toEqual([]);
    expect(res.body).not.toContain(hook.id);
  });

  it('answers 400 for a bad limit, 404 for an unknown account, 401 without the key', async () => {
    const acct = await api.createAccount();
    for (const limit of ['-1', '1001', '1e2', '0x10', '007']) {
      const bad = await api.call('GET', `/v1/accounts/${acct}/activity?limit=${limit}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([
        { field: 'limit', message: 'must be a whole number from 1 to 1000' },
      ]);
    }
    expect((await api.call('GET', '/v1/accounts/acct_00000000000000000000/activity')).statusCode).toBe(404);
    expect((await api.call('GET', `/v1/accounts/${acct}/activity`, undefined, { key: 'x' })).statusCode).toBe(
      401,
    );
  });
});
