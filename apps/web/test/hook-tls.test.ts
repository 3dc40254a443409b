import { makeTestPki } from '@hookline/testing';
import { expectEveryControlLabelled, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// A client certificate on the hook form: refused with the field named, shown by subject and expiry after,
// the key never echoed, and a warning once the certificate is within 14 days of its end.
describe('client certificates on the website', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('uploads one: a mismatched key is named; saved, the page shows subject and expiry and warns', async () => {
    const pki = makeTestPki('mtls.example.com', 'hookline-client', 2);
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://mtls.example.com/hook' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expectEveryControlLabelled(page);

    await page.getByLabel('Certificate (PEM)').fill(pki.client.cert);
    await page.getByLabel('Private key (PEM)').fill(pki.stranger.key);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#tls_key-error').textContent()).resolves.toBe(
      "Private key does not match cert (it is another certificate's key).",
    );
    expect(await page.content()).not.toContain(pki.stranger.key.split('\n')[1]!);

    await page.getByLabel('Certificate (PEM)').fill(pki.client.cert);
    await page.getByLabel('Private key (PEM)').fill(pki.client.key);
    await page.getByLabel('CA certificate (PEM, optional)').fill(pki.ca);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(page.locator('[data-hook-tls]').textContent()).resolves.toContain(
      'CN=hookline-client, O=Acme',
    );
    // Valid for 2 days: within the 14-day warning.
    await expect(page.locator('[data-tls-expiry]').textContent()).resolves.toContain(
      'The client certificate is valid until',
    );
    expect(await page.content()).not.toContain(pki.client.key.split('\n')[1]!);
    // As pasted, without the trailing line break a textarea's value trims.
    await expect(w.store.hooks.target(hook.id)).resolves.toMatchObject({
      tls: { cert: pki.client.cert.trim(), key: pki.client.key.trim(), ca: pki.ca.trim() },
    });

    // Left empty, the stored one stays; the remove box takes it away.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expect(page.locator('[data-tls-stored]').textContent()).resolves.toContain('CN=hookline-client');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // Nothing typed is no change (the website saves only what changed), and the stored certificate stays.
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Nothing to save');
    expect((await w.store.hooks.get(account.id, hook.id))?.tls?.subject).toBe('CN=hookline-client, O=Acme');
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await page.getByLabel('Remove the client certificate').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    expect(await w.store.hooks.get(account.id, hook.id)).not.toHaveProperty('tls');
  });

  it('creates a hook with one: refused with a plain-http URL, saved with https', async () => {
    const pki = makeTestPki('mtls.example.com', 'hookline-client', 30);
    const account = await w.account('new@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'new@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    // The key pasted into the certificate's box is refused in the page's words, and never shown back.
    await page.getByLabel('Endpoint URL').fill('https://mtls.example.com/hook');
    await page.getByLabel('Certificate (PEM)').fill(pki.client.cert + pki.client.key);
    await page.getByLabel('Private key (PEM)').fill(pki.client.key);
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect(page.locator('#tls_cert-error').textContent()).resolves.toBe(
      'Certificate holds a private key: the key goes in a field of its own, this one takes only the certificate (its chain may follow).',
    );
    expect(await page.content()).not.toContain(pki.client.key.split('\n')[1]!);

    await page.getByLabel('Endpoint URL').fill('http://mtls.example.com/hook');
    await page.getByLabel('Certificate (PEM)').fill(pki.client.cert);
    await page.getByLabel('Private key (PEM)').fill(pki.client.key);
    await page.getByRole('button', { name: 'Create hook' }).click();
    // The URL is what to change, and the certificate (public) is kept for the next try; the key is not.
    await expect(page.locator('#url-error').textContent()).resolves.toBe(
      'URL must start with https:// to present a client certificate: use https, or leave the certificate out.',
    );
    await expect(page.getByLabel('Certificate (PEM)').inputValue()).resolves.toBe(pki.client.cert);
    await expect(page.getByLabel('Private key (PEM)').inputValue()).resolves.toBe('');
    await expect(w.store.hooks.list(account.id)).resolves.toEqual([]);

    await page.getByLabel('Endpoint URL').fill('https://mtls.example.com/hook');
    await page.getByLabel('Certificate (PEM)').fill(pki.client.cert);
    await page.getByLabel('Private key (PEM)').fill(pki.client.key);
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook created.');
    await expect(page.locator('[data-hook-tls]').textContent()).resolves.toContain(
      'CN=hookline-client, O=Acme',
    );
    const [created] = await w.store.hooks.list(account.id);
    await expect(w.store.hooks.target(created!.id)).resolves.toMatchObject({
      tls: { cert: pki.client.cert.trim(), key: pki.client.key.trim() },
    });
  });
});
