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

  it.each(['deliver', 'discard'] as const)(
    'carries out %s on a page that showed held events when more were held since (a busy account)',
    async (held) => {
      const account = await w.account(`busy-${held}@acme.test`);
      const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
      await w.suspend(hook.id, 3);
      const publish = (call_id: string) =>
        w.producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE_CALL_DATA, call_id } });
      await publish('c1');
      const session = await signInOverHttp(w.baseUrl, `busy-${held}@acme.test`, PASSWORD);
      const page = await (
        await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
      ).text();
      const choice = { ...formFields(page, held), _csrf: csrfOf(page) };
      expect(choice.seen_held).toBe('1');
      await publish('c2');
      await publish('c3');

      expect((await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, choice)).status).toBe(303);
      expect((await w.store.hooks.get(account.id, hook.id))?.state).toBe('active');
      const after = await (
        await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
      ).text();
      expect(after).toContain(
        held === 'deliver'
          ? 'Hook re-enabled. The 3 held events are queued for delivery, in order'
          : 'Hook re-enabled. The 3 held events were discarded.',
      );
    },
  );

  it('does not carry out a choice made on a page of an earlier suspension', async () => {
    const account = await w.account('again@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
    await w.suspend(hook.id, 3);
    await w.producer.publish(account.id, { type: 'call_created', data: SAMPLE_CALL_DATA });
    const session = await signInOverHttp(w.baseUrl, 'again@acme.test', PASSWORD);
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    const choice = { ...formFields(page, 'discard'), _csrf: csrfOf(page) };
    // Re-enabled elsewhere, then suspended again: the page's choice was about the first suspension.
    await w.control.enable(account.id, hook.id, 'deliver', 'operator');
    await w.suspend(hook.id, 3);
    expect((await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, choice)).status).toBe(303);
    expect((await w.store.hooks.get(account.id, hook.id))?.state).toBe('suspended');
  });
});
