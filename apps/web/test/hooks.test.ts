import { startReceiver } from '@hookline/testing';
import {
  expectEveryControlLabelled,
  expectNoAxeViolations,
  screenshot,
  signIn,
  useBrowser,
} from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

describe('managing hooks (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('creates a hook: field errors, Bearer credentials to http:// with a warning, masked afterwards, exact preview', async () => {
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await screenshot(page, 'hooks-empty');
    await page.getByRole('link', { name: 'Create your first hook' }).click();

    await page.getByLabel('Endpoint URL').fill('ftp://files.example.com/drop');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect(page.locator('#url-error').textContent()).resolves.toBe('URL must use http or https.');
    await expect(page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).resolves.toBe('true');

    // Credential fields show for the chosen scheme only; the http:// warning appears as soon as it applies.
    await expect(page.getByLabel('Token', { exact: true }).isVisible()).resolves.toBe(false);
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/calls?src=pbx');
    await page.getByLabel('Description').fill('CRM call log');
    await page.getByRole('radio', { name: /^Bearer token/ }).check();
    await expect(page.getByLabel('Username', { exact: true }).isVisible()).resolves.toBe(false);
    await page.getByLabel('Token', { exact: true }).fill('sk_live_51HqLyjWDarjtT1zdp7dc3456');
    await expect(page.locator('[data-http-warning]').isVisible()).resolves.toBe(true);
    await screenshot(page, 'hook-form');
    await page.getByRole('button', { name: 'Create hook' }).click();

    await page.getByRole('heading', { name: 'CRM call log', level: 1 }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook created.');
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain('Active');
    await expect(page.getByText('Credentials over plain HTTP.').isVisible()).resolves.toBe(true);
    const content = await page.content();
    expect(content).not.toContain('sk_live_51HqLyjWDarjtT1zdp7dc3456');
    expect(content).toContain('Bearer token ••••3456');
    const preview = await page.locator('[data-request-preview]').textContent();
    expect(preview).toBe(
      [
        'POST /calls?src=pbx HTTP/1.1',
        'host: 127.0.0.1:9',
        'connection: keep-alive',
        'Content-Type: application/json; charset=utf-8',
        'X-Service-Event-Type: call_created',
        'Authorization: Bearer ••••3456',
        'User-Agent: hookline/0.1',
        'content-length: 179',
        '',
        '{"EventType":"call_created","call_id":"9309b4a2-d59f","direction":"outbound","from":"jonas1",' +
          '"from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}',
      ].join('\n'),
    );
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook).toMatchObject({ url: 'http://127.0.0.1:9/calls?src=pbx', auth: { scheme: 'bearer' } });
    await expect(w.store.hooks.target(hook!.id)).resolves.toMatchObject({
      auth: { scheme: 'bearer', token: 'sk_live_51HqLyjWDarjtT1zdp7dc3456' },
    });
  });

  it('edits a hook: an empty secret keeps the stored one; switching to form + Basic needs both credentials', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      auth: { scheme: 'bearer', token: 'tok_0123456789abcd' },
    });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expect(page.getByText('Saved: ••••abcd.').isVisible()).resolves.toBe(true);
    await expectEveryControlLabelled(page);
    await page.getByLabel('Description').fill('Billing');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(w.store.hooks.target(hook.id)).resolves.toMatchObject({
      auth: { scheme: 'bearer', token: 'tok_0123456789abcd' },
    });

    await page.getByRole('link', { name: 'Edit', exact: true }).first().click();
    await page.getByRole('radio', { name: /^Form/ }).check();
    await page.getByRole('radio', { name: /^Basic/ }).check();
    await page.getByLabel('Username', { exact: true }).fill('pbx');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#basic_password-error').textContent()).resolves.toBe(
      'Password must not be empty: type one, or tick No password.',
    );
    await page.getByLabel('Password', { exact: true }).fill('s3cret-passw0rd');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(page.getByText('Basic ••••w0rd').isVisible()).resolves.toBe(true);
    const preview = (await page.locator('[data-request-preview]').textContent()) ?? '';
    expect(preview).toContain('Content-Type: application/x-www-form-urlencoded');
    expect(preview).toContain('Authorization: Basic ••••');
    expect(preview).toContain(
      'EventType=call_created&call_id=9309b4a2-d59f&direction=outbound&from=jonas1&from_cnam=Jonas+1',
    );
    expect(preview).not.toContain('s3cret');
    await expect(w.store.hooks.target(hook.id)).resolves.toMatchObject({
      format: 'form',
      auth: { scheme: 'basic', username: 'pbx', password: 's3cret-passw0rd' },
    });

    // A receiver that takes an API key as the username: the password is removed by ticking No password.
    await page.getByRole('link', { name: 'Edit', exact: true }).first().click();
    await page.getByLabel('Username', { exact: true }).fill('key_live_0123');
    await page.getByRole('checkbox', { name: /^No password/ }).check();
    await screenshot(page, 'hook-edit-basic-no-password');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(w.store.hooks.target(hook.id)).resolves.toMatchObject({
      auth: { scheme: 'basic', username: 'key_live_0123', password: '' },
    });
  });

  it('deletes a hook only after confirming', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.getByRole('link', { name: 'https://crm.example.com/hook' }).click();
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Delete this hook?' }).waitFor();
    // Deleting drops waiting events, not the history (README, "Delivery history").
    const text = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(text).toContain(
      "Its past deliveries stay in your account's history: Find a call finds them by call id.",
    );
    await screenshot(page, 'hook-delete');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toBeDefined();

    await page.getByRole('link', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete hook' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook deleted.');
    await page.getByRole('heading', { name: 'No hooks yet' }).waitFor();
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toBeUndefined();
  });

  it("answers 404 for another account's hook on every page and action, and changes nothing", async () => {
    await w.account('mine@acme.test');
    const other = await w.account('theirs@globex.test', 'Globex');
    const theirs = await w.hook(other.id, { url: 'https://globex.example.com/secret-endpoint' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'mine@acme.test', PASSWORD);

    for (const path of ['', '/edit', '/delete', '/live', '/signing-secret']) {
      const response = await page.goto(`${w.baseUrl}/hooks/${theirs.id}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.content()).not.toContain('globex.example.com');
    }
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await screenshot(page, 'not-found');

    // Same-origin posts with this visitor's valid CSRF token: still not their hook.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const statuses = await page.evaluate(
      async ({ id, token }) => {
        const post = (path: string, extra: Record<string, string> = {}) =>
          fetch(`/hooks/${id}${path}`, {
            method: 'POST',
            body: new URLSearchParams({ _csrf: token, ...extra }),
            redirect: 'manual',
          }).then((r) => r.status);
        return [
          await post('/test'),
          await post('/enable', { held: 'discard' }),
          await post('/delete'),
          await post('/edit', { url: 'https://evil.example.com/', format: 'json', auth_scheme: 'none' }),
        ];
      },
      { id: theirs.id, token: csrf },
    );
    expect(statuses).toEqual([404, 404, 404, 404]);
    await expect(w.store.hooks.get(other.id, theirs.id)).resolves.toMatchObject({
      url: 'https://globex.example.com/secret-endpoint',
    });
    await expect(w.hookQueues.waitingCount(theirs.id)).resolves.toBe(0);
  });

  it('refuses a forged POST without the CSRF token: from another origin and from a script on the page', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    // Another origin (a different port on the same host is the same *site*, so SameSite=Lax still sends the
    // cookie: only the token stops this).
    const attacker = await startReceiver(() => ({
      kind: 'status',
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: `<form id="f" method="post" action="${w.baseUrl}/hooks/${hook.id}/delete"></form>
        <script>document.getElementById('f').submit()</script>`,
    }));
    w.ctx.closeLater(attacker);
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);

    const refused = page.waitForResponse((r) => r.url().endsWith(`/hooks/${hook.id}/delete`));
    await page.goto(attacker.url('/innocent-looking-page'));
    expect((await refused).status()).toBe(403);
    await page.getByRole('heading', { name: 'This request was refused' }).waitFor();
    await screenshot(page, 'csrf-refused');

    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const status = await page.evaluate(
      (id) =>
        fetch(`/hooks/${id}/delete`, { method: 'POST', body: new URLSearchParams({}) }).then((r) => r.status),
      hook.id,
    );
    expect(status).toBe(403);
    await expect(w.store.hooks.get(account.id, hook.id)).resolves.toMatchObject({
      url: 'https://crm.example.com/hook',
    });
  });
});
