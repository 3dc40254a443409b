import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AttemptRecord } from '@hookline/core';
import { startReceiver } from '@hookline/testing';
import { DESKTOP, PHONE, screenshot, SCREENSHOTS, signIn, useBrowser } from './support/browser';
import { measureTargets } from './support/target-size';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(180000);

const CALL = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };

// WCAG 2.2 target size (2.5.8): every link, button and field a customer taps is at least 24 × 24 CSS px, or
// spaced as the criterion allows, on every page state, on a phone (375 px) and on a desktop.
// The brand's help link is set: every page then shows it at its foot, a target like any other.
describe('target sizes on every page state (browser)', () => {
  const w = useWebsite({
    config: () => ({ HOOKLINE_BRAND_SUPPORT_URL: 'https://help.example.test/webhooks' }),
  });
  const browser = useBrowser();
  const found: { state: string; width: number; failing: string[]; spacedOnly: string[] }[] = [];

  async function measure(page: Page, state: string) {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const { failing, spacedOnly } = await measureTargets(page);
      if (failing.length + spacedOnly.length > 0)
        found.push({ state, width: size.width, failing, spacedOnly });
    }
    await page.setViewportSize(PHONE);
  }

  function delivered(accountId: string, hookId: string, i: number): AttemptRecord {
    const at = Date.now() - 3_600_000 + i * 1000;
    return {
      ...deliveredAttempt(accountId, hookId, at, `call-${i}`),
      ...(i % 7 === 0 ? { outcome: 'failed' as const, status_code: 500 } : {}),
      response_headers: { 'content-type': 'text/plain' },
    };
  }

  it('finds no target under 24 px but links within sentences', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 503 }));
    w.ctx.closeLater(receiver);
    const page = await browser.page(PHONE);
    await page.goto(`${w.baseUrl}/login`);
    await measure(page, 'sign-in');

    const account = await w.account('ops@acme.test');
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await measure(page, 'no hooks yet');

    const crm = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      description: 'CRM',
      signing: true,
    });
    const failing = await w.hook(account.id, { url: receiver.url('/hook'), description: 'Billing' });
    const paused = await w.hook(account.id, { url: 'https://pbx.example.com/in', description: 'PBX' });
    await w.history.writer.write(Array.from({ length: 55 }, (_, i) => delivered(account.id, crm.id, i)));
    await w.ctx.redis.hset(w.keys.hookStreak(crm.id), 'warned', Date.now());
    await w.control.suspend(paused.id, 'paused by admin: moving the endpoint', 'admin:ops');
    await w.suspend(failing.id, 4);
    for (let i = 0; i < 23; i += 1)
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: `held-${i}` } });

    await page.goto(w.baseUrl);
    await measure(page, 'hooks');
    await page.locator('main').screenshot({ path: join(SCREENSHOTS, 'targets-hooks-375.png') });
    await page.goto(`${w.baseUrl}/hooks/${crm.id}`);
    await measure(page, 'failing hook with a full log');
    await page.locator('.page-header').screenshot({ path: join(SCREENSHOTS, 'targets-hook-header-375.png') });
    await screenshot(page, 'targets-hook');
    await page.getByRole('link', { name: /Older/ }).click();
    await page.locator('[data-log-position]').waitFor();
    await measure(page, 'older attempts');
    await page.goto(`${w.baseUrl}/hooks/${crm.id}?window=7d`);
    await measure(page, 'health over 7 days');
    await page.goto(`${w.baseUrl}/hooks/${crm.id}?outcome=failed`);
    await measure(page, 'filtered log');
    await page.goto(`${w.baseUrl}/hooks/${crm.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').first().waitFor();
    await measure(page, 'test event sent');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByLabel('Signing secret').waitFor();
    await measure(page, 'signing secret shown once');

    await page.goto(`${w.baseUrl}/hooks/${failing.id}`);
    await measure(page, 'suspended hook with held events');
    await screenshot(page, 'targets-suspended');
    await page.getByRole('link', { name: 'Later →' }).click();
    await page.waitForURL(/held_from=20/);
    await measure(page, 'held events, second page');
    await page.goto(`${w.baseUrl}/hooks/${failing.id}`);
    await page.getByRole('button', { name: /^Test & re-enable/ }).click();
    await page.getByRole('link', { name: 'See the test attempt.' }).waitFor();
    await measure(page, 'refused test');
    await page.getByRole('link', { name: 'See the test attempt.' }).click();
    await page.getByRole('heading', { name: 'Attempt', level: 1 }).waitFor();
    await measure(page, 'attempt');
    await page.goto(`${w.baseUrl}/hooks/${paused.id}`);
    await measure(page, 'paused by an administrator');

    await page.goto(`${w.baseUrl}/activity`);
    await measure(page, 'activity');
    await page.goto(`${w.baseUrl}/search?call_id=call-3`);
    await measure(page, 'find a call');
    await page.goto(`${w.baseUrl}/hooks/new`);
    await measure(page, 'new hook');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.locator('.field-error').first().waitFor();
    await measure(page, 'failed form');
    await page.goto(`${w.baseUrl}/hooks/${crm.id}/edit`);
    await measure(page, 'edit');
    await page.goto(`${w.baseUrl}/hooks/${crm.id}/delete`);
    await measure(page, 'delete');
    await page.goto(`${w.baseUrl}/account`);
    await measure(page, 'account');
    await page.goto(`${w.baseUrl}/hooks/hk_nothere`);
    await measure(page, 'not found');

    expect(found).toEqual([]);
  });
});
