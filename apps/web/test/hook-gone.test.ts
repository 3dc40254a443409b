import { newId } from '@hookline/core';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// A deleted hook's pages say it was deleted (410 Gone), when and by whom as the account's activity feed holds it,
// with the way back to the hooks; an id the account never had stays a plain "not found" (404).
describe("a deleted hook's pages (browser)", () => {
  const w = useWebsite();
  const browser = useBrowser();

  const open = async (page: Page, path: string) => (await page.goto(`${w.baseUrl}${path}`))!.status();
  const gone = (page: Page) => page.locator('.error-page');

  it('deleted on the website: every page of the hook answers 410 and says it was deleted, by you, when', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/delete`);
    await page.getByRole('button', { name: 'Delete hook' }).click();
    await page.getByRole('heading', { name: 'Hooks', level: 1 }).waitFor();
    const [deleted] = (await w.store.activity.list(account.id, 10)).filter((e) => e.kind === 'hook.deleted');

    const attempt = newId('att', Date.now());
    for (const path of [
      `/hooks/${hook.id}`,
      `/hooks/${hook.id}?outcome=failed`,
      `/hooks/${hook.id}/edit`,
      `/hooks/${hook.id}/delete`,
      `/hooks/${hook.id}/deliveries/${attempt}`,
    ]) {
      expect([path, await open(page, path)]).toEqual([path, 410]);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This hook was deleted',
      );
      const words = ((await gone(page).textContent()) ?? '').replace(/\s+/g, ' ');
      expect(words).toContain('It was deleted by you on ');
      expect(words).not.toContain('There is nothing here');
    }
    // The time is the feed's, in the page's zone (Kolkata), as every time on the site.
    const shown = page.locator('.error-page time');
    await expect(shown.getAttribute('datetime')).resolves.toBe(deleted!.at);
    const kolkata = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      dateStyle: 'medium',
      timeStyle: 'medium',
    }).format(new Date(deleted!.at));
    await expect(shown.textContent()).resolves.toBe(kolkata);
    await expect(page.getByRole('link', { name: 'Go to your hooks' }).getAttribute('href')).resolves.toBe(
      '/',
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'hook-deleted');
  });

  it('deleted by the provider (API key): says so; the edit form saved afterwards is answered the same', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.locator('[data-live-url]').waitFor({ state: 'attached' });
    const form = await page.context().newPage();
    await form.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await w.store.hooks.remove(account.id, hook.id, 'operator');

    // The hook's page, left open, follows: it is loaded again and says the hook was deleted.
    await page.getByRole('heading', { name: 'This hook was deleted', level: 1 }).waitFor();
    await form.getByLabel('Description').fill('CRM (typed)');
    const [answer] = await Promise.all([
      form.waitForResponse((r) => r.request().method() === 'POST'),
      form.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(answer.status()).toBe(410);
    const words = ((await gone(form).textContent()) ?? '').replace(/\s+/g, ' ');
    expect(words).toContain('It was deleted by your provider on ');
    await expectNoAxeViolations(form);
  });

  it('an id the account never had, or another account’s deleted hook, stays a plain 404', async () => {
    await w.account('ops@acme.test');
    const other = await w.account('other@globex.test', 'Globex');
    const theirs = await w.hook(other.id, { url: 'https://globex.example.com/hook' });
    await w.history.writer.write([deliveredAttempt(other.id, theirs.id, Date.now() - 60_000, 'c-1')]);
    await w.store.hooks.remove(other.id, theirs.id, `customer:${other.id}`);
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    for (const id of [newId('hk'), theirs.id]) {
      expect(await open(page, `/hooks/${id}`)).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    }
  });

  it('deleted long ago (no longer in the feed): its records in the history still tell it was deleted', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    await w.history.writer.write([deliveredAttempt(account.id, hook.id, Date.now() - 60_000, 'c-1')]);
    await w.store.hooks.remove(account.id, hook.id, 'operator');
    await w.ctx.redis.del(w.keys.accountActivity(account.id));
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    expect(await open(page, `/hooks/${hook.id}`)).toBe(410);
    const words = ((await gone(page).textContent()) ?? '').replace(/\s+/g, ' ');
    expect(words).toMatch(/This hook was deleted Its settings are gone and no event is sent to it any more/);
    await expectNoAxeViolations(page);
    await screenshot(page, 'hook-deleted-long-ago');
  });
});
