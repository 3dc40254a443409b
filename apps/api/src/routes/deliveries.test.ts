import type { DeliveryRecord } from '@hookline/core';
import { useApi } from '../test-support/api-harness';

const record = (n: number, extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  event_id: `evt_${String(n).padStart(12, '0')}`,
  event_type: 'call_created',
  outcome: 'delivered',
  status_code: 200,
  duration_ms: 12,
  attempted_at: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString(),
  ...extra,
});

describe('GET /v1/accounts/{acct}/hooks/{hook}/deliveries', () => {
  const api = useApi();
  const url = (acct: string, hook: string, query = '') =>
    `/v1/accounts/${acct}/hooks/${hook}/deliveries${query}`;

  async function hookWithLog(count: number) {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    for (let n = 1; n <= count; n += 1) await api.deps.store.deliveryLog.append(hook.id, record(n));
    return { acct, hookId: hook.id };
  }

  it('lists the log newest first, 50 by default', async () => {
    const { acct, hookId } = await hookWithLog(60);
    const res = await api.call('GET', url(acct, hookId));
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toHaveLength(50);
    expect(data[0]).toEqual(record(60));
    expect(data[49].event_id).toBe(record(11).event_id);
  });

  it('honours limit and shows every outcome field', async () => {
    const { acct, hookId } = await hookWithLog(2);
    await api.deps.store.deliveryLog.append(
      hookId,
      record(3, {
        outcome: 'timed_out',
        status_code: undefined,
        duration_ms: 15000,
        error: 'no answer in 15 s',
      }),
    );
    const res = await api.call('GET', url(acct, hookId, '?limit=2'));
    expect(res.json().data).toEqual([
      {
        event_id: record(3).event_id,
        event_type: 'call_created',
        outcome: 'timed_out',
        duration_ms: 15000,
        attempted_at: record(3).attempted_at,
        error: 'no answer in 15 s',
      },
      record(2),
    ]);
  });

  it.each([['0'], ['1001'], ['ten'], ['1.5'], ['']])(
    'answers 400 naming limit for limit=%s',
    async (limit) => {
      const { acct, hookId } = await hookWithLog(1);
      const res = await api.call('GET', url(acct, hookId, `?limit=${limit}`));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        { field: 'limit', message: 'must be a whole number from 1 to 1000' },
      ]);
    },
  );

  it('answers 400 for an unknown query parameter', async () => {
    const { acct, hookId } = await hookWithLog(1);
    const res = await api.call('GET', url(acct, hookId, '?limt=5'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(['limt']);
  });

  it("answers 404 for another account's hook, showing none of its log", async () => {
    const theirs = await hookWithLog(3);
    const mine = await api.createAccount('Mine');
    const res = await api.call('GET', url(mine, theirs.hookId));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('evt_');
  });

  it('answers 404 for an unknown account or hook, and 401 without the key', async () => {
    const { acct, hookId } = await hookWithLog(1);
    expect((await api.call('GET', url('acct_00000000000000000000', hookId))).statusCode).toBe(404);
    expect((await api.call('GET', url(acct, 'hk_00000000000000000000'))).statusCode).toBe(404);
    const res = await api.call('GET', url(acct, hookId), undefined, { key: null });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('evt_');
  });
});
