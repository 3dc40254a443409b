import type { AuditEntry } from '@hookline/core';
import type { RedisErasures } from '@hookline/store';
import { useApi } from '../test-support/api-harness';

describe('erasures through the API', () => {
  const api = useApi();
  const url = (acct: string) => `/v1/accounts/${acct}/erasures`;

  it('accepts an erasure by number or call id (202 {id}) and shows it running with its counts', async () => {
    const acct = await api.createAccount();
    await api.createHook(acct);
    for (const body of [{ number: '+15550100' }, { call_id: 'c-1' }]) {
      const res = await api.call('POST', url(acct), body);
      expect(res.statusCode).toBe(202);
      const { id } = res.json() as { id: string };
      expect(id).toMatch(/^ers_/);
      const got = await api.call('GET', `${url(acct)}/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toMatchObject({
        id,
        account_id: acct,
        state: 'running',
        by: Object.keys(body)[0],
        requested_by: 'operator',
        counts: { history: 0, queued: 0 },
      });
      expect(got.body).not.toContain(Object.values(body)[0]);
    }
    // Audited once each, by the operator key, saying by what — never the number or the call id asked for.
    const audit = await api.call('GET', `/v1/accounts/${acct}/audit`);
    const entries = (audit.json() as { data: { action: string; actor: { kind: string }; detail: object }[] })
      .data;
    expect(entries.filter((e) => e.action === 'erasure.requested')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ kind: 'operator_key' }),
        detail: expect.objectContaining({ by: 'call_id' }),
      }),
      expect.objectContaining({ detail: expect.objectContaining({ by: 'number' }) }),
    ]);
    expect(audit.body).not.toContain('+15550100');
    expect(audit.body).not.toContain('c-1');
  });

  it('keeps who asked with the erasure: its erasure.done entry names the same key and address', async () => {
    const acct = await api.createAccount();
    await api.createHook(acct);
    const { id } = (await api.call('POST', url(acct), { number: '+15550100' })).json() as { id: string };
    const requested = (
      (await api.call('GET', `/v1/accounts/${acct}/audit`)).json() as { data: AuditEntry[] }
    ).data.find((e) => e.action === 'erasure.requested')!;
    // What the monitor's runner does at the end (apps/monitor): the entry it then writes.
    // The API's deps name only what its routes use; the store behind them is the whole one.
    const erasures = api.deps.store.erasures as RedisErasures;
    const work = (await erasures.work(acct, id))!;
    await erasures.finish(acct, id, work.target, work.view.counts);
    expect((await erasures.unclosed(acct, id))?.audit).toMatchObject({
      action: 'erasure.done',
      actor: requested.actor,
      address: requested.address,
      detail: { erasure_id: id, by: 'number', counts: work.view.counts },
    });
  });

  it('refuses both a call id and a number, naming both', async () => {
    const acct = await api.createAccount();
    const res = await api.call('POST', url(acct), { number: '+1', call_id: 'c' });
    expect(res.statusCode).toBe(400);
    const message = 'give only one of call_id and number: an erasure is by one of them';
    expect(res.json()).toMatchObject({
      error: {
        details: [
          { field: 'call_id', message },
          { field: 'number', message },
        ],
      },
    });
  });

  it.each([
    [{}, 'call_id'],
    [{ number: '+1', call_id: 'c' }, 'call_id'],
    [{ number: '' }, 'number'],
    [{ number: 5 }, 'number'],
    [{ phone: '+1' }, 'phone'],
  ])('refuses %j with 400 naming %s, and starts nothing', async (body, field) => {
    const acct = await api.createAccount();
    const keys = await api.keyCount();
    const res = await api.call('POST', url(acct), body);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(field);
    expect(await api.keyCount()).toBe(keys);
  });

  it.each([
    ['number', '   '],
    ['number', '\u00a0\u2003'],
    ['call_id', ' '],
  ])('refuses a %s of spaces only (%j) with 400 naming it, and starts nothing', async (field, value) => {
    const acct = await api.createAccount();
    const keys = await api.keyCount();
    const res = await api.call('POST', url(acct), { [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(
      `{"error":{"code":"VALIDATION_FAILED","message":"Invalid request: ${field}",` +
        `"details":[{"field":"${field}","message":"${field} must not be empty or only spaces"}]}}`,
    );
    expect(await api.keyCount()).toBe(keys);
  });

  it('accepts a call id or number as long as a catalogue text field (1024 characters), and no longer', async () => {
    // A catalogue kind's call_id or personal field holds up to 1024 characters: an erasure must be able to
    // name any value an event was accepted with, or that event could never be erased.
    const acct = await api.createAccount();
    for (const field of ['call_id', 'number']) {
      const accepted = await api.call('POST', url(acct), { [field]: 'L'.repeat(1024) });
      expect(accepted.statusCode).toBe(202);
      const refused = await api.call('POST', url(acct), { [field]: 'L'.repeat(1025) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        error: { details: [{ field, message: `${field} must be at most 1024 characters` }] },
      });
    }
  });

  it("another account's erasure is not found (404)", async () => {
    const acct = await api.createAccount();
    const other = await api.createAccount('Other');
    const { id } = (await api.call('POST', url(acct), { number: '+1' })).json() as { id: string };
    expect((await api.call('GET', `${url(other)}/${id}`)).statusCode).toBe(404);
    expect((await api.call('GET', `${url(acct)}/ers_nope`)).statusCode).toBe(404);
  });
});
