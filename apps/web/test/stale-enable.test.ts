import { SAMPLE_CALL_DATA } from '@hookline/core';
import { csrfOf, postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// A hook page opened while nothing was held offers "Re-enable deliveries" only. If events are held after
// it loaded, pressing it must not deliver them without the customer having been offered to discard them.
describe('re-enabling from a page that has gone stale', () => {
  const w = useWebsite();

  const formFields = (page: string, held: 'deliver' | 'discard') => {
    const form = new RegExp(
      `name="held" value="${held}" />\\s*<input type="hidden" name="seen_suspended_at" value="([^"]*)" />\\s*<input type="hidden" name="seen_held" value="(\\d+)" />`,
    ).exec(page)!;
    return { held, seen_suspended_at: form[1]!, seen_held: form[2]! };
  };

  it('changes nothing and shows the current state; the choice made on it then counts', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
    await w.suspend(hook.id, 3);
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const before = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    const staleChoice = formFields(before, 'deliver');
    expect(staleChoice.seen_held).toBe('0');

    for (const call_id of ['c1', 'c2'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE_CALL_DATA, call_id } });
    const refused = await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, staleChoice);
    expect(refused.status).toBe(303);
    expect((await w.store.hooks.get(account.id, hook.id))?.state).toBe('suspended');
    expect(await w.hookQueues.waitingCount(hook.id)).toBe(2);

    const now = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(now).toContain(
      'Nothing was changed: the hook changed since the page was loaded, and 2 events are held now.',
    );
    expect(now).toContain('Re-enable and discard them');
    const fresh = { ...formFields(now, 'discard'), _csrf: csrfOf(now) };
    expect((await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, fresh)).status).toBe(303);
    expect((await w.store.hooks.get(account.id, hook.id))?.state).toBe('active');
    expect(await w.hookQueues.waitingCount(hook.id)).toBe(0);
  });
});
