import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

// README "The website": an edit form carries the version of the settings it shows; saved after someone else
// saved a change, it is refused and shows the settings as they are now, so it never undoes that change.
describe('an edit form opened before another change', () => {
  const w = useWebsite();
  const browser = useBrowser();

  const save = (page: Page) => page.getByRole('button', { name: 'Save changes' }).click();

  it('is refused with the current settings, and a save from the refreshed form goes through', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      description: 'CRM call log',
    });
    const a = await browser.page();
    await signIn(a, w.baseUrl, 'ops@acme.test', PASSWORD);
    const b = await a.context().newPage();
    await a.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await b.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);

    await a.getByLabel('Endpoint URL').fill('https://crm2.example.com/hook');
    await a.getByLabel('Description').fill('CRM call log (new endpoint)');
    await save(a);
    await expect(a.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');

    // Tab B still shows the settings from before A's save.
    await b.locator('input[name="format"][value="form"]').check();
    await save(b);
    const alert = b.locator('[data-changed-meanwhile]');
    await expect(alert.textContent()).resolves.toMatch(
      /This hook was changed since you opened this form.*nothing was saved/s,
    );
    await expect(b.getByLabel('Endpoint URL').inputValue()).resolves.toBe('https://crm2.example.com/hook');
    await expect(b.getByLabel('Description').inputValue()).resolves.toBe('CRM call log (new endpoint)');
    await expect(b.locator('input[name="format"][value="json"]').isChecked()).resolves.toBe(true);
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({
      url: 'https://crm2.example.com/hook',
      description: 'CRM call log (new endpoint)',
      format: 'json',
    });
    await expectNoAxeViolations(b);
    await screenshot(b, 'hook-edit-changed-meanwhile');

    // The refused page's form is of the current version: the change made again is saved, A's kept.
    await b.locator('input[name="format"][value="form"]').check();
    await save(b);
    await expect(b.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({
      url: 'https://crm2.example.com/hook',
      description: 'CRM call log (new endpoint)',
      format: 'form',
    });

    // Back in tab A to its form: it shows the hook as it is now, not the values typed before its save (the
    // browser fills a form in again from its history unless told not to), so saving it keeps B's change.
    await a.goBack();
    await expect(a.locator('input[name="format"][value="form"]').isChecked()).resolves.toBe(true);
    await a.getByLabel('Description').fill('CRM call log (third)');
    await save(a);
    await expect(a.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({
      url: 'https://crm2.example.com/hook',
      description: 'CRM call log (third)',
      format: 'form',
    });
  });

  it('refuses a stale save over HTTP with 409 and writes nothing', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const version = await w.store.hooks.version(account.id, hook.id);
    await w.store.hooks.update(account.id, hook.id, { description: 'CRM (API)' }, 'operator');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    // The form as it was before the API's change: its version is the older one.
    await page
      .locator('input[name="version"]')
      .evaluate((el, v) => ((el as unknown as { value: string }).value = v), String(version));
    await page.getByLabel('Description').fill('CRM');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      save(page),
    ]);
    expect(response.status()).toBe(409);
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({ description: 'CRM (API)' });
    const feed = await w.store.activity.list(account.id, 10);
    expect(feed.filter((e) => e.kind === 'hook.updated')).toHaveLength(1);
    expect((await w.audit.list(account.id, { limit: 10 })).data).toEqual([]);
  });

  // A form without a version, or with one it could not have been given, could undo a change made since.
  it.each([
    ['none', null],
    ['not a number', 'abc'],
    ['negative', '-1'],
  ])('refuses a save whose version is %s with 409, writing nothing', async (_what, given) => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await page.locator('input[name="version"]').evaluate((el, v) => {
      if (v === null) el.remove();
      else (el as unknown as { value: string }).value = v;
    }, given);
    await page.getByLabel('Description').fill('CRM (typed)');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      save(page),
    ]);
    expect(response.status()).toBe(409);
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({ description: 'CRM' });
  });
});
