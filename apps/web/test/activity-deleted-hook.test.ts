import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

// A hook deleted since is still named on the Activity page, as its entries recorded it, and the page does not
// guess who deleted it.
describe('the Activity page after a hook is deleted', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('names the hook from its entries and says it was deleted since', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.acme.test/calls', description: 'CRM' });
    const provider = { kind: 'operator_key' as const, key: 'sha256:0123456789abcdef' };
    const entry = { account_id: account.id, hook_id: hook.id, address: '192.0.2.7' };
    await w.audit.record({ ...entry, action: 'hook.created', actor: provider, detail: { url: hook.url } });
    await w.audit.record({ ...entry, action: 'hook.tested', actor: provider, detail: {} });
    await w.store.hooks.remove(account.id, hook.id, 'account');
    await w.audit.record({
      ...entry,
      action: 'hook.deleted',
      actor: { kind: 'account_user' },
      detail: { url: hook.url, description: 'CRM' },
    });

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/activity`);
    const text = (await page.locator('ul.feed').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Hook deleted CRM by you');
    // Created without a description: named by its address then, not by its later name.
    expect(text).toContain('Hook created https://crm.acme.test/calls (deleted since) by your provider');
    // An entry that recorded no name takes the one the hook had when it was deleted.
    expect(text).toContain('Test event sent CRM (deleted since) by your provider');
    expect(text).not.toContain('deleted by your provider');
    await expectNoAxeViolations(page);
    await screenshot(page, 'activity-deleted-hook');
  });
});
