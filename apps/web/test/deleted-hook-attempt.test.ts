import { newId, type AttemptRecord } from '@hookline/core';
import { postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// Deleting a hook keeps its records in the account's history (README, "Delivery history"), and each keeps its
// page (product.md §10): found from Find a call, with the request and the response, and no way to send again.
describe("a deleted hook's attempts", () => {
  const w = useWebsite();

  const failed = (accountId: string, hookId: string): AttemptRecord => {
    const at = Date.now() - 60_000;
    return {
      attempt_id: newId('att', at),
      event_id: newId('evt', at),
      event_type: 'call_created',
      call_id: 'c-gone',
      trigger: 'auto',
      outcome: 'failed',
      status_code: 503,
      duration_ms: 40,
      attempted_at: new Date(at).toISOString(),
      account_id: accountId,
      hook_id: hookId,
      request: {
        method: 'POST',
        url: 'https://crm.example.com/hook',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: '{"EventType":"call_created","call_id":"c-gone"}',
      },
    };
  };

  it('keep their page, reached from Find a call, without Send again; no other account reads it', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const record = failed(account.id, hook.id);
    await w.history.writer.write([record]);
    await w.store.hooks.remove(account.id, hook.id, 'operator');

    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const get = (path: string, cookie = session.cookie) =>
      fetch(`${w.baseUrl}${path}`, { headers: { cookie } });
    const search = await (await get('/search?call_id=c-gone')).text();
    const path = `/hooks/${hook.id}/deliveries/${record.attempt_id}`;
    expect(search).toContain(`href="${path}"`);

    const res = await get(path);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('← Find a call');
    expect(page).toContain(
      '{&quot;EventType&quot;:&quot;call_created&quot;,&quot;call_id&quot;:&quot;c-gone&quot;}',
    );
    expect(page).toContain('The hook was deleted: nothing can be sent to it again.');
    expect(page).not.toContain('>Send again</button>');
    // Sent again after the delete: the page says the hook was deleted (410), not "nothing here".
    expect((await postForm(w.baseUrl, session, `${path}/resend`, {})).status).toBe(410);

    await w.account('other@globex.test', 'Globex');
    const other = await signInOverHttp(w.baseUrl, 'other@globex.test', PASSWORD);
    expect((await get(path, other.cookie)).status).toBe(404);
  });
});
