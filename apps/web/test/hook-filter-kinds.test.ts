import { parseEventCatalog } from '@hookline/core';
import { CALLBACK_CATALOG } from '@hookline/testing';
import { signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const parsed = parseEventCatalog(CALLBACK_CATALOG);
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));

// The filter editor offers the fields of the kinds ticked in the same form (product.md §15: nothing is offered
// that the server would refuse), and follows the ticks as they change.
describe('the filter editor follows the kinds ticked (browser)', () => {
  const w = useWebsite({ eventCatalog: parsed.catalog });
  const browser = useBrowser();

  it('offers only the fields of the subscribed kinds, and more as kinds are ticked', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/callbacks',
      events: ['callback_requested'],
    });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    const offered = () =>
      page.$$eval('#filter_field_0 option', (options) =>
        options.filter((o) => !o.disabled && !o.hidden && o.value !== '').map((o) => o.value),
      );
    await expect(offered()).resolves.toEqual(['call_id', 'callback', 'note']);
    await page.getByLabel('call_created').check();
    await expect(offered()).resolves.toEqual([
      'call_id',
      'direction',
      'from',
      'from_cnam',
      'to',
      'rate',
      'date',
      'callback',
      'note',
    ]);
    await page.getByLabel('call_created').uncheck();
    await expect(offered()).resolves.toEqual(['call_id', 'callback', 'note']);
  });
});
