import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const HELP = 'https://help.voxtel.test/webhooks';

/** Opens a sign-in link made without a return address, and signs out from the page it opens. */
async function signOutOfLinkSession(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/portal/${token}`);
  await page.getByRole('heading', { name: 'Hooks', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname !== '/');
}

// product.md §16: a sign-in link's session signs out to the operator's return address. Without one, its customer
// (who signs in on the operator's site, and may have no password here) is told to sign in there again, not
// shown a password form; a password session still lands on the sign-in page.
describe('signing out (browser)', () => {
  describe('with a support address set', () => {
    const w = useWebsite({ config: () => ({ HOOKLINE_BRAND_SUPPORT_URL: HELP }) });
    const browser = useBrowser();

    it('a sign-in link’s session without a return address lands on "You are signed out", with the help link', async () => {
      const account = await w.account('ops@acme.test');
      const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
      const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
      await signOutOfLinkSession(page, w.baseUrl, link.token);

      expect(new URL(page.url()).pathname).toBe('/signed-out');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You are signed out');
      const words = ((await page.locator('[data-signed-out]').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(words).toContain("sign in again from your provider's site");
      await expect(page.locator('input[type="password"]').count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Get help' }).getAttribute('href')).resolves.toBe(HELP);
      // Signed out for real: the hooks ask for a sign-in again.
      await page.goto(`${w.baseUrl}/`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.goto(`${w.baseUrl}/signed-out`);
      await expectNoAxeViolations(page);
      await screenshot(page, 'signed-out-link-session');
    });
  });

  describe('without a support address', () => {
    const w = useWebsite();
    const browser = useBrowser();

    it('a read-only link’s session lands on the same page, without a help link', async () => {
      const account = await w.account('ops@acme.test');
      const link = await w.portalLinks.create(account.id, { readOnly: true, ttlSeconds: 300 });
      const page = await browser.page();
      await signOutOfLinkSession(page, w.baseUrl, link.token);
      expect(new URL(page.url()).pathname).toBe('/signed-out');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You are signed out');
      await expect(page.getByRole('link', { name: 'Get help' }).count()).resolves.toBe(0);
      await expectNoAxeViolations(page);
    });

    it('a password session still lands on the sign-in page, saying it is signed out', async () => {
      await w.account('ops@acme.test');
      const page = await browser.page();
      await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await expect(page.getByRole('status').textContent()).resolves.toContain('You are signed out.');
      await expect(page.locator('input[type="password"]').count()).resolves.toBe(1);
    });
  });
});
