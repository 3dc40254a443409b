import { expectEveryControlLabelled, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// Extra headers on the hook form (product.md §17): typed as `Name: value` lines, refused with the header
// named, shown on the hook's page and in the request preview as sent.
describe('extra headers on the website', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('edits them: a reserved one is refused by name; saved ones show in settings and the preview', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expectEveryControlLabelled(page);

    await page.getByLabel('Extra headers').fill('X-Api-Key: k_123\nAuthorization: Bearer mine');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#headers-error').textContent()).resolves.toBe(
      "Headers: Authorization cannot be given here: set credentials as the hook's authentication.",
    );
    await expect(page.getByLabel('Extra headers').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Extra headers').inputValue()).resolves.toBe(
      'X-Api-Key: k_123\nAuthorization: Bearer mine',
    );
    expect((await w.store.hooks.get(account.id, hook.id))?.headers).toBeUndefined();

    await page.getByLabel('Extra headers').fill('X-Api-Key: k_123\n\nX-Tenant:  acme eu-1 ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(page.locator('[data-hook-headers]').textContent()).resolves.toMatch(
      /X-Api-Key: k_123\s*X-Tenant: acme eu-1/,
    );
    const preview = (await page.locator('[data-request-preview]').textContent())!.split('\n');
    expect(preview.slice(4, 8)).toEqual([
      'X-Service-Event-Type: call_created',
      'X-Api-Key: k_123',
      'X-Tenant: acme eu-1',
      'User-Agent: hookline/0.1',
    ]);
    expect((await w.store.hooks.get(account.id, hook.id))?.headers).toEqual({
      'X-Api-Key': 'k_123',
      'X-Tenant': 'acme eu-1',
    });

    // Emptied, they are gone.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expect(page.getByLabel('Extra headers').inputValue()).resolves.toBe(
      'X-Api-Key: k_123\nX-Tenant: acme eu-1',
    );
    await page.getByLabel('Extra headers').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    expect((await w.store.hooks.get(account.id, hook.id))?.headers).toBeUndefined();
  });
});

// HOOKLINE_EVENT_TYPE_HEADER renamed: the form refuses the new name and takes the default as any other header.
describe('extra headers on the website, the event-type header renamed', () => {
  const w = useWebsite({ config: () => ({ HOOKLINE_EVENT_TYPE_HEADER: 'X-Acme-Event' }) });
  const browser = useBrowser();

  it('refuses the configured name and saves the default one', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);

    await page.getByLabel('Extra headers').fill('x-acme-event: mine');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#headers-error').textContent()).resolves.toBe(
      'Headers: x-acme-event is set on every delivery and cannot be given.',
    );

    await page.getByLabel('Extra headers').fill('X-Service-Event-Type: legacy');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    expect((await w.store.hooks.get(account.id, hook.id))?.headers).toEqual({
      'X-Service-Event-Type': 'legacy',
    });
    const preview = (await page.locator('[data-request-preview]').textContent())!.split('\n');
    expect(preview).toContain('X-Acme-Event: call_created');
    expect(preview).toContain('X-Service-Event-Type: legacy');
  });
});
