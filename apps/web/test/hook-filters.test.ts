import { SAMPLE_CALL_DATA } from '@hookline/core';
import { expectEveryControlLabelled, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// The filter editor of the hook form (product.md §18), in Chromium: set, shown in words, refused with the field
// and operator named, changed and removed; the events published afterwards follow it.
describe('hook filters on the website (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('sets a filter, shows "this hook gets", names the field and operator of a bad one, and removes it', async () => {
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/inbound');
    await page.getByLabel('Description').fill('Inbound London');
    await page.getByLabel('Filter 1: field').selectOption('direction');
    await page.getByLabel('Filter 1: condition').selectOption('is');
    await page.getByLabel('Filter 1: value').fill('inbound');
    await page.getByLabel('Filter 2: field').selectOption('to');
    await page.getByLabel('Filter 2: condition').selectOption('prefix');
    await page.getByLabel('Filter 2: value').fill('+4420');
    await expectEveryControlLabelled(page);
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.getByRole('heading', { name: 'Inbound London', level: 1 }).waitFor();
    await expect(page.locator('[data-hook-gets]').textContent()).resolves.toBe(
      'This hook gets: events of every kind where direction is “inbound” and to starts with “+4420”.',
    );
    await screenshot(page, 'hook-filter');
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook?.filter).toEqual({ direction: 'inbound', to: { $prefix: '+4420' } });

    // The editor shows the stored conditions and spare rows; an empty "is one of" is refused by name.
    await page.goto(`${w.baseUrl}/hooks/${hook!.id}/edit`);
    await expect(page.getByLabel('Filter 2: value').inputValue()).resolves.toBe('+4420');
    await expect(page.locator('[data-filter-row]').count()).resolves.toBe(4);
    await page.getByLabel('Filter 3: field').selectOption('from');
    await page.getByLabel('Filter 3: condition').selectOption('in');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#filter-error').textContent()).resolves.toBe(
      'Filter on “from” (“is one of”): must be a list of 1 to 100 texts.',
    );
    await expect(page.getByLabel('Filter 3: field').inputValue()).resolves.toBe('from');
    await page.getByLabel('Filter 3: value').fill('+111, +222');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await expect(page.locator('[data-hook-gets]').textContent()).resolves.toContain(
      'from is one of “+111”, “+222”',
    );
    const publish = (data: Record<string, string>) =>
      w.producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE_CALL_DATA, ...data } });
    const inbound = { direction: 'inbound', to: '+44207', from: '+222' };
    expect((await publish(inbound)).hooks).toEqual([hook!.id]);
    expect((await publish({ ...inbound, from: '+333' })).hooks).toEqual([]);

    // Clearing every row removes the filter: the hook gets every event again.
    await page.goto(`${w.baseUrl}/hooks/${hook!.id}/edit`);
    for (const i of [1, 2, 3]) await page.getByLabel(`Filter ${i}: field`).selectOption('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('[data-hook-gets]').textContent()).resolves.toBe(
      'This hook gets: all events of every kind.',
    );
    expect((await w.store.hooks.get(account.id, hook!.id))?.filter).toBeUndefined();
    expect((await publish({ direction: 'outbound' })).hooks).toEqual([hook!.id]);
  });

  it('keeps "is one of" values holding commas, quotes or outer spaces when the hook form is saved', async () => {
    // Caller names are often "Last, First": a value with a comma is shown in double quotes and read back whole,
    // so saving the form for another change leaves the filter as it was.
    const account = await w.account('ops@acme.test');
    const filter = { from_cnam: { $in: ['Smith, John', 'Doe', ' padded ', 'say "hi"', ''] } };
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/inbound', filter });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expect(page.getByLabel('Filter 1: value').inputValue()).resolves.toBe(
      '"Smith, John", Doe, " padded ", "say ""hi""", ""',
    );
    await page.getByLabel('Description').fill('Names');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    expect((await w.store.hooks.get(account.id, hook.id))?.filter).toEqual(filter);

    // Typed by the customer: quotes keep a comma inside a value, unquoted values are trimmed.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await page.getByLabel('Filter 1: value').fill(' "Lee, Ann" ,  Bo ,');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('[data-hook-gets]').textContent()).resolves.toContain(
      'from_cnam is one of “Lee, Ann”, “Bo”',
    );
    expect((await w.store.hooks.get(account.id, hook.id))?.filter).toEqual({
      from_cnam: { $in: ['Lee, Ann', 'Bo'] },
    });
  });
});
