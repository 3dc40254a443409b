import { expectNoAxeViolations, PHONE, DESKTOP, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// A brand colour is accepted at start when it contrasts 4.5:1 with white (product.md §16). Links are drawn on
// the page's grey ground and inside coloured notices too, where the same colour falls below AA: the pages must
// still pass axe with the darkest colour the start check accepts.
describe('a brand colour at the edge of the contrast rule', () => {
  // 4.54:1 with white, 4.2:1 on the page's #f5f6f8.
  const w = useWebsite({
    config: () => ({ HOOKLINE_BRAND_NAME: 'Voxtel', HOOKLINE_BRAND_COLOR: '#767676' }),
  });
  const browser = useBrowser();

  it('keeps every page readable: sign-in, hooks, a hook, its form', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/calls', description: 'CRM' });
    await w.suspend(hook.id, 3);
    const page = await browser.page();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto(`${w.baseUrl}/login`);
      await expectNoAxeViolations(page);
    }
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    for (const path of ['/', `/hooks/${hook.id}`, `/hooks/${hook.id}/edit`, '/activity', '/account'])
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        await page.goto(`${w.baseUrl}${path}`);
        await expectNoAxeViolations(page);
      }
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await screenshot(page, 'brand-edge-colour-hook');
  });
});
