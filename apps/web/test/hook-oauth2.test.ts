import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver, waitUntil } from '@hookline/testing';
import { expectEveryControlLabelled, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// OAuth 2.0 client credentials (product.md §17) and Basic on the hook form: checked as the API checks them
// (its wording beside the field), the secret never shown back (§4: last 4 at most), the preview showing the
// bearer masked; a test event then goes with a token the test's own token endpoint issued.
describe('credentials on the hook form', () => {
  const w = useWebsite();
  const browser = useBrowser();

  /** A token endpoint that knows one client (client_secret_post) and hands out one token. */
  async function tokenEndpoint() {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        asked.push(body);
        const params = new URLSearchParams(body);
        const ok =
          params.get('grant_type') === 'client_credentials' &&
          params.get('client_id') === 'crm-client' &&
          params.get('client_secret') === 'oauth-secret-7788' &&
          params.get('scope') === 'webhooks.write';
        res.setHeader('Content-Type', 'application/json');
        res.statusCode = ok ? 200 : 401;
        res.end(
          ok
            ? '{"access_token":"issued-token-42","token_type":"Bearer","expires_in":3600}'
            : '{"error":"invalid_client"}',
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    w.ctx.onCleanup(() => new Promise((r) => server.close(r)));
    return { asked, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token` };
  }

  it('warns while typing, and on the page it answers with, when the client secret would go to an http:// token URL', async () => {
    await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.getByRole('link', { name: 'Create your first hook' }).click();
    const warning = page.locator('[data-http-warning]');
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.locator('#auth_scheme-oauth2').check();
    await page.getByLabel('Token URL').fill('https://auth.example.com/token');
    await expect(warning.isVisible()).resolves.toBe(false);
    await page.getByLabel('Token URL').fill('http://auth.example.com/token');
    await expect(warning.isVisible()).resolves.toBe(true);
    await expect(warning.textContent()).resolves.toMatch(/client secret/);

    // Answered with the form again (no client id): the warning is drawn by the server too.
    await page.getByLabel('Client secret').fill('oauth-secret-7788');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.locator('#oauth2_client_id-error').waitFor();
    await expect(warning.isVisible()).resolves.toBe(true);
    await screenshot(page, 'hook-form-oauth2-http-token-url');
  });

  it('creates an OAuth 2.0 hook; a test event reaches the endpoint with the token the endpoint issued', async () => {
    const receiver = await startReceiver();
    w.ctx.closeLater(receiver);
    const token = await tokenEndpoint();
    w.runWorker();
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.getByRole('link', { name: 'Create your first hook' }).click();
    await expectEveryControlLabelled(page);
    await page.getByLabel('Endpoint URL').fill(receiver.url('/calls'));
    await page.getByLabel('Description').fill('CRM with OAuth');
    await page.locator('#auth_scheme-oauth2').check();
    // Only the chosen scheme's fields are shown.
    await expect(page.getByLabel('Token', { exact: true }).isVisible()).resolves.toBe(false);
    await page.getByLabel('Token URL').fill('ftp://auth.example.com/token');
    await page.getByLabel('Client ID').fill('crm-client');
    await page.getByLabel('Client secret').fill('oauth-secret-7788');
    await page.getByLabel('Scope').fill('webhooks.write');
    await page.getByLabel('In the form body').check();
    await page.getByRole('button', { name: 'Create hook' }).click();

    // The API's wording, beside the field; the secret is not sent back into the page.
    await expect(page.locator('#oauth2_token_url-error').textContent()).resolves.toBe(
      'Token URL must be an absolute http:// or https:// URL without user-info.',
    );
    await expect(page.getByLabel('Token URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Client ID').inputValue()).resolves.toBe('crm-client');
    expect(await page.content()).not.toContain('oauth-secret-7788');
    expect(await w.store.hooks.list(account.id)).toEqual([]);

    await page.getByLabel('Token URL').fill(token.url);
    await page.getByLabel('Client secret').fill('oauth-secret-7788');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.getByRole('heading', { name: 'CRM with OAuth', level: 1 }).waitFor();
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook!.auth).toEqual({
      scheme: 'oauth2',
      token_url: token.url,
      client_id: 'crm-client',
      client_secret_last4: '7788',
      scope: 'webhooks.write',
      client_auth: 'post',
    });
    const preview = (await page.locator('[data-request-preview]').textContent())!;
    expect(preview).toContain('Authorization: Bearer ••••');
    expect(await page.content()).not.toContain('oauth-secret-7788');

    await page.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(1, 20000);
    expect(receiver.requests[0]!.headers.authorization).toBe('Bearer issued-token-42');
    expect(token.asked).toHaveLength(1);
    const row = page.locator('#delivery-log tr', { hasText: 'test event' });
    await row.waitFor({ timeout: 20000 });
    await expect(row.getAttribute('data-outcome')).resolves.toBe('delivered');

    // The edit form shows the settings, the secret by its last 4 only, and keeps it when left empty.
    await page.goto(`${w.baseUrl}/hooks/${hook!.id}/edit`);
    await expect(page.locator('#auth_scheme-oauth2').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe('');
    await expect(page.locator('#oauth2_client_secret-hint').textContent()).resolves.toContain('••••7788');
    expect(await page.content()).not.toContain('oauth-secret-7788');
    await page.getByLabel('Scope').fill('webhooks.read');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#oauth2_client_secret-error').textContent()).resolves.toBe(
      'Enter the client secret again to change the OAuth 2.0 settings.',
    );
    expect((await w.store.hooks.get(account.id, hook!.id))?.auth).toMatchObject({ scope: 'webhooks.write' });
    const target = await w.store.hooks.target(hook!.id);
    expect(target?.auth).toMatchObject({ client_secret: 'oauth-secret-7788' });
  });

  it('never shows a stored Basic username; it stays unless typed again with the password', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      auth: { scheme: 'basic', username: 'pbx-user-name', password: 'basic-pass-5566' },
    });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expectEveryControlLabelled(page);
    await expect(page.getByRole('textbox', { name: 'Username' }).inputValue()).resolves.toBe('');
    await expect(page.locator('#basic_password-hint').textContent()).resolves.toContain('••••5566');
    const content = await page.content();
    expect(content).not.toContain('pbx-user-name');
    expect(content).not.toContain('basic-pass-5566');

    // Saved with nothing typed: nothing changes.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Nothing to save');
    const stored = async () => (await w.store.hooks.target(hook.id))?.auth;
    await expect(stored()).resolves.toEqual({
      scheme: 'basic',
      username: 'pbx-user-name',
      password: 'basic-pass-5566',
    });

    // A new username needs the password; with it, both are saved.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await page.getByRole('textbox', { name: 'Username' }).fill('new-user');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#basic_password-error').textContent()).resolves.toBe(
      'Enter the password again to change the username.',
    );
    await page.getByLabel('Password', { exact: true }).fill('basic-pass-9900');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await waitUntil(async () => (await stored())?.scheme === 'basic', 'the stored credentials');
    await expect(stored()).resolves.toEqual({
      scheme: 'basic',
      username: 'new-user',
      password: 'basic-pass-9900',
    });
    // The hook page says the scheme and the password's last 4 only.
    expect(await page.content()).not.toContain('new-user');
  });
});
