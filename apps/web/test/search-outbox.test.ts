import { newId, type AttemptRecord } from '@hookline/core';
import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// "Find a call" shows an attempt as soon as its outcome is recorded (product.md §10): while it waits in the
// hook's Redis outbox (no history writer runs here), beside those already in PostgreSQL, each once.
describe('Find a call, attempts not yet in the database', () => {
  const w = useWebsite();

  const record = (accountId: string, hookId: string, secondsAgo: number, callId: string): AttemptRecord => {
    const at = Date.now() - secondsAgo * 1000;
    return {
      attempt_id: newId('att', at),
      event_id: newId('evt', at),
      event_type: 'call_created',
      call_id: callId,
      trigger: 'auto',
      outcome: 'delivered',
      status_code: 200,
      duration_ms: 40,
      attempted_at: new Date(at).toISOString(),
      account_id: accountId,
      hook_id: hookId,
    };
  };

  it('lists waiting and written attempts of the call together, newest first', async () => {
    const account = await w.account('ops@acme.test');
    const crm = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const billing = await w.hook(account.id, { url: 'https://billing.example.com/in' });
    const written = record(account.id, crm.id, 30, 'c-42');
    const both = record(account.id, billing.id, 20, 'c-42');
    const waiting = record(account.id, crm.id, 10, 'c-42');
    await w.history.writer.write([written, both]);
    await w.store.historyOutbox.append(crm.id, [record(account.id, crm.id, 15, 'c-7'), waiting]);
    await w.store.historyOutbox.append(billing.id, [both]);

    const { cookie } = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const res = await fetch(`${w.baseUrl}/search?call_id=c-42`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const page = await res.text();
    const rows = [...page.matchAll(/<tr data-attempt-id="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual([waiting.attempt_id, both.attempt_id, written.attempt_id]);
  });
});
