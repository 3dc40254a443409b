import { expectEveryControlLabelled, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

describe('signing in, out, and changing the password (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('signs in with the email and password given at POST /v1/accounts, back to the page asked for; signs out', async () => {
    await w.account('ops@acme.test');
    const page = await browser.page();

    await page.goto(`${w.baseUrl}/hooks/new`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill('ops@acme.test');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'The email or password is not correct.',
    );
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('ops@acme.test');
    await screenshot(page, 'login-error');

    // Keyboard only: the email field has focus, Tab moves to the password, Enter submits.
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New hook' }).waitFor();
    await expectEveryControlLabelled(page);
    expect(new URL(page.url()).pathname).toBe('/hooks/new');

    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'hookline_session', httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('You are signed out.');
    await page.goto(`${w.baseUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login');
  });

  it('stops password guessing after 5 failures for an email, even with the right password, and says why', async () => {
    await w.account('target@acme.test');
    const page = await browser.page();
    await page.goto(`${w.baseUrl}/login`);
    for (let i = 0; i < 5; i += 1) {
      await page.getByLabel('Email').fill('target@acme.test');
      await page.getByLabel('Password').fill(`guess-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('not correct');
    }
    await page.getByLabel('Password').fill(PASSWORD);
    const answer = page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await answer).status()).toBe(429);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Too many failed sign-in attempts\. For your security, try again in 1[45] minutes\./,
    );
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('changes the password: field errors first, then the old password stops working and the new one works', async () => {
    await w.account('me@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'me@acme.test', PASSWORD);
    await page.getByRole('link', { name: 'Account' }).click();

    await page.getByLabel('Current password').fill('wrong current password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a different one entirely');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#confirm_password-error').textContent()).resolves.toBe(
      'The two new passwords do not match.',
    );
    await expect(page.getByLabel('Repeat the new password').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await expectEveryControlLabelled(page);
    await screenshot(page, 'account-errors');

    await page.getByLabel('Current password').fill('wrong current password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#current_password-error').textContent()).resolves.toBe(
      'The current password is not correct.',
    );

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Password changed.');

    await expect(w.store.accounts.verifyPassword('me@acme.test', PASSWORD)).resolves.toBeUndefined();
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.locator('[data-kind="account.password_changed"]').getByText('by you').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, w.baseUrl, 'me@acme.test', 'a brand new password');
  });
});
