import { createHash } from 'node:crypto';
import { newId } from '@hookline/core';
import { startReceiver } from '@hookline/testing';
import { API_KEY, callCreated, useApi } from '../test-support/api-harness';

// Every change made through the API writes exactly one audit entry (product.md §16), naming the operator key
// by its fingerprint; GET …/audit reads them newest first, with cursor paging.

const FINGERPRINT = `sha256:${createHash('sha256').update(API_KEY).digest('hex').slice(0, 16)}`;
const OPERATOR = { kind: 'operator_key', key: FINGERPRINT };

describe('the audit log through the API', () => {
  const api = useApi();
  const audit = async (acct: string, query = '') => {
    const res = await api.call('GET', `/v1/accounts/${acct}/audit${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { data: Record<string, unknown>[]; next_cursor?: string };
  };
  const hookUrl = (acct: string, hook: string) => `/v1/accounts/${acct}/hooks/${hook}`;

  it('records each change once, with the key fingerprint, the address and the fields, never a secret', async () => {
    const receiver = api.ctx.closeLater(await startReceiver());
    const acct = await api.createAccount();
    const hook = await api.createHook(acct, { url: receiver.url('/a'), signing: true });
    const steps: [string, string, unknown, string, Record<string, unknown>][] = [
      [
        'PATCH',
        hookUrl(acct, hook.id),
        { description: 'CRM', url: receiver.url('/b') },
        'hook.updated',
        { fields: ['description', 'url'] },
      ],
      [
        'PATCH',
        hookUrl(acct, hook.id),
        { auth: { scheme: 'bearer', token: 'tok_very_secret_1' } },
        'hook.credentials_changed',
        { fields: ['auth'] },
      ],
      [
        'POST',
        `${hookUrl(acct, hook.id)}/signing-secret/rotate`,
        undefined,
        'hook.signing_secret_changed',
        { fields: ['signing_secret'] },
      ],
      [
        'POST',
        `${hookUrl(acct, hook.id)}/test`,
        undefined,
        'hook.tested',
        { event_id: expect.stringMatching(/^evt_/) },
      ],
    ];
    for (const [method, url, body, action, detail] of steps) {
      const before = (await audit(acct)).data.length;
      const res = await api.call(method, url, body);
      expect(res.statusCode).toBeLessThan(300);
      const { data } = await audit(acct);
      expect(data).toHaveLength(before + 1);
      expect(data[0]).toMatchObject({
        action,
        hook_id: hook.id,
        actor: OPERATOR,
        address: '127.0.0.1',
        detail,
      });
    }
    // Suspended, then re-enabled choosing what to do with held events.
    await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops');
    expect((await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, { held: 'discard' })).statusCode).toBe(
      200,
    );
    expect((await audit(acct)).data[0]).toMatchObject({
      action: 'hook.enabled',
      detail: { held: 'discard' },
    });
    // Enabling an active hook changes nothing and writes nothing; nor does a PATCH giving present values.
    const count = (await audit(acct)).data.length;
    await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, { held: 'deliver' });
    const same = await api.call('PATCH', hookUrl(acct, hook.id), {
      description: 'CRM',
      url: receiver.url('/b'),
    });
    expect(same.statusCode).toBe(200);
    expect((await audit(acct)).data).toHaveLength(count);

    expect((await api.call('DELETE', hookUrl(acct, hook.id))).statusCode).toBe(204);
    const { data } = await audit(acct);
    expect(data.map((e) => e.action)).toEqual([
      'hook.deleted',
      'hook.enabled',
      'hook.tested',
      'hook.signing_secret_changed',
      'hook.credentials_changed',
      'hook.updated',
      'hook.created',
      'account.created',
    ]);
    // Once the hook is gone, its creation and deletion still say which endpoint it was (as it was each time).
    expect(data[0]!.detail).toEqual({ url: receiver.url('/b'), description: 'CRM' });
    expect(data.at(-2)!.detail).toEqual({ url: receiver.url('/a') });
    const text = JSON.stringify(data);
    expect(text).not.toContain('tok_very_secret_1');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('whsec_');
  });

  it("answers an admin's pause with the reason the admin gave", async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    // As Bull Board's pause writes it (apps/admin board-actions.ts).
    await api.deps.audit.record({
      account_id: acct,
      action: 'hook.paused',
      hook_id: hook.id,
      actor: { kind: 'admin', name: 'ops' },
      address: '127.0.0.1',
      detail: { reason: 'endpoint migration until 10:00' },
    });
    expect((await audit(acct)).data[0]).toMatchObject({
      action: 'hook.paused',
      detail: { reason: 'endpoint migration until 10:00' },
    });
  });

  it('records a failed probe as such, and a send-again with both attempts', async () => {
    const receiver = api.ctx.closeLater(
      await startReceiver(() => ({ kind: 'status', status: 500, body: 'down' })),
    );
    const acct = await api.createAccount();
    const hook = await api.createHook(acct, { url: receiver.url('/hook') });
    await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops');
    const probe = await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, {
      held: 'deliver',
      probe: true,
    });
    expect(probe.statusCode).toBe(409);
    expect((await audit(acct)).data[0]).toMatchObject({
      action: 'hook.probed',
      actor: OPERATOR,
      detail: { held: 'deliver', passed: false },
    });

    const at = Date.now() - 1000;
    const record = {
      attempt_id: newId('att', at),
      event_id: newId('evt', at),
      event_type: 'call_created',
      call_id: 'call-1',
      trigger: 'auto' as const,
      outcome: 'failed' as const,
      duration_ms: 5,
      attempted_at: new Date(at).toISOString(),
      account_id: acct,
      hook_id: hook.id,
      event_fields: { EventType: 'call_created', ...callCreated({ call_id: 'call-1' }) },
    };
    await api.history.writer.write([record]);
    const res = await api.call('POST', `${hookUrl(acct, hook.id)}/deliveries/${record.attempt_id}/resend`);
    expect(res.statusCode).toBe(202);
    expect((await audit(acct)).data[0]).toMatchObject({
      action: 'hook.resent',
      detail: { attempt_id: record.attempt_id, new_attempt_id: res.json().attempt_id },
    });
  });

  it('records an account’s creation once, by the key, saying whether it can sign in, never the password', async () => {
    const plain = await api.createAccount('No sign-in');
    expect((await audit(plain)).data).toEqual([
      expect.objectContaining({
        action: 'account.created',
        actor: OPERATOR,
        address: '127.0.0.1',
        detail: { sign_in: false },
      }),
    ]);
    const res = await api.call('POST', '/v1/accounts', {
      name: 'With sign-in',
      email: 'ops@signin.test',
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(201);
    const { data } = await audit(res.json().id);
    expect(data).toEqual([
      expect.objectContaining({ action: 'account.created', actor: OPERATOR, detail: { sign_in: true } }),
    ]);
    expect(JSON.stringify(data)).not.toContain('correct horse battery');
    expect(JSON.stringify(data)).not.toContain('ops@signin.test');
    // A refused creation (the email is taken) records nothing anywhere.
    const again = await api.call('POST', '/v1/accounts', {
      name: 'Again',
      email: 'ops@signin.test',
      password: 'correct horse battery',
    });
    expect(again.statusCode).toBe(409);
    expect((await audit(res.json().id)).data).toHaveLength(1);
  });

  it('refused changes write nothing: bad input, another account’s hook', async () => {
    const acct = await api.createAccount();
    const other = await api.createAccount('Other');
    const hook = await api.createHook(acct);
    const before = (await audit(acct)).data.length;
    expect((await api.call('PATCH', hookUrl(acct, hook.id), { url: 'not a url' })).statusCode).toBe(400);
    expect((await api.call('DELETE', hookUrl(other, hook.id))).statusCode).toBe(404);
    expect((await audit(acct)).data).toHaveLength(before);
    expect((await audit(other)).data.map((e) => e.action)).toEqual(['account.created']);
  });

  it('pages newest first with next_cursor, and names bad query fields', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    for (let i = 0; i < 3; i++) await api.call('PATCH', hookUrl(acct, hook.id), { description: `d${i}` });
    const one = await audit(acct, '?limit=3');
    expect(one.data).toHaveLength(3);
    const two = await audit(acct, `?limit=3&cursor=${one.next_cursor}`);
    expect(two.data.map((e) => e.action)).toEqual(['hook.created', 'account.created']);
    expect(two.next_cursor).toBeUndefined();
    const ids = [...one.data, ...two.data].map((e) => e.id);
    expect(new Set(ids).size).toBe(5);

    const bad = await api.call('GET', `/v1/accounts/${acct}/audit?limit=0&cursor=zzz`);
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['cursor', 'limit']);
    // A forged cursor whose time PostgreSQL cannot hold is refused like any other (it was a 500).
    const [, id] = Buffer.from(one.next_cursor!, 'base64url').toString('utf8').split('|');
    const forged = Buffer.from(`-100000-01-01T00:00:00.000Z|${id}`).toString('base64url');
    const far = await api.call('GET', `/v1/accounts/${acct}/audit?cursor=${forged}`);
    expect(far.statusCode).toBe(400);
    expect(far.json().error.details).toEqual([
      { field: 'cursor', message: 'is not a cursor this API gave (use next_cursor)' },
    ]);
    for (const limit of ['1e2', '0x10', '007']) {
      const res = await api.call('GET', `/v1/accounts/${acct}/audit?limit=${limit}`);
      expect(res.json().error.details).toEqual([
        { field: 'limit', message: 'must be a whole number from 1 to 200' },
      ]);
    }
    expect(
      (await api.call('GET', `/v1/accounts/${acct}/audit`, undefined, { key: 'wrong' })).statusCode,
    ).toBe(401);
  });
});
