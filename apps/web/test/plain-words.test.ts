import type { Page } from 'playwright-core';
import { machineText, startReceiver } from '@hookline/testing';
import {
  DESKTOP,
  expectNoAxeViolations,
  PHONE,
  screenshot,
  sentencesOf,
  signIn,
  useBrowser,
} from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(120000);

const CALL = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };

// §15: every page state a customer meets in an incident reads in plain words (no id, ISO time, outcome or
// error code, API path) and passes axe-core, at 1280 and 375 px.
describe('plain words and accessibility on every page state (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  async function check(page: Page, name: string) {
    expect({ page: name, found: machineText(await sentencesOf(page)) }).toEqual({ page: name, found: [] });
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await expectNoAxeViolations(page);
    }
    await page.setViewportSize(DESKTOP);
  }

  it('walks an incident end to end', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 503 }));
    w.ctx.closeLater(receiver);
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: receiver.url('/hook'),
      description: 'CRM',
      auth: { scheme: 'basic', username: 'crm-user', password: 's3cret-pass' },
    });
    const other = await w.hook(account.id, { url: 'https://billing.example.com/in', description: 'Billing' });
    await w.control.suspend(other.id, 'paused by admin', 'admin:ops');
    await w.suspend(hook.id, 4);
    for (const call_id of ['held-1', 'held-2'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id } });

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await check(page, 'hooks');
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await check(page, 'suspended hook');
    // §4: Basic shows its scheme and the last 4 characters at most, never the username.
    expect(await page.content()).not.toContain('crm-user');

    await page.getByRole('button', { name: /^Test & re-enable/ }).click();
    await page.getByRole('status').first().waitFor();
    await check(page, 'refused test');
    await page.getByRole('link', { name: 'See the test attempt.' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, 'test attempt');

    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Re-enable and discard them' }).click();
    await page.getByRole('status').first().waitFor();
    await check(page, 're-enabled, discarded');
    await screenshot(page, 'plain-discarded');
    const discarded = page.locator('#delivery-log tr[data-outcome="discarded"] a').first();
    await discarded.click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, 'discarded attempt');

    await page.goto(`${w.baseUrl}/hooks/${hook.id}?outcome=delivered`);
    await check(page, 'empty filter');
    await page.goto(`${w.baseUrl}/hooks/${other.id}`);
    await check(page, 'paused by an administrator');
    await page.goto(`${w.baseUrl}/activity`);
    await check(page, 'activity');
    await screenshot(page, 'plain-activity');
    await page.goto(`${w.baseUrl}/search?call_id=held-1`);
    await check(page, 'find a call');
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.locator('.field-error').first().waitFor();
    // The focus is on the first field to fix.
    await expect(page.evaluate('document.activeElement && document.activeElement.name')).resolves.toBe('url');
    await check(page, 'failed form');
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await check(page, 'edit');
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/delete`);
    await check(page, 'delete');
    await page.goto(`${w.baseUrl}/account`);
    await check(page, 'account');
    await page.goto(`${w.baseUrl}/hooks/hk_nothere`);
    await check(page, 'not found');
  });
});
