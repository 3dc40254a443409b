import { waitUntil } from '@hookline/testing';
import { askedAgainWithEtag, screenshot, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

// §15 "live pages stay true": an open hook page follows the hook without a reload.
describe('a hook page left open (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  const delivered = (accountId: string, hookId: string, i: number) =>
    deliveredAttempt(accountId, hookId, Date.now() - 60_000 + i * 10, `call-${i}`);

  it('shows the Failing badge, the filled log with Older, and health as they change; an unchanged hook costs a 304', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.locator('#delivery-log .empty').waitFor();
    // A mark on the window: gone if the page reloaded.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));

    // Half-way to a suspension, as the monitor records it.
    await w.ctx.redis.hset(w.keys.hookStreak(hook.id), 'warned', Date.now());
    await page.locator('[data-hook-state]', { hasText: 'Failing' }).waitFor({ timeout: 20000 });

    // The log fills past one page: the rows and Older appear.
    await w.history.writer.write(Array.from({ length: 51 }, (_, i) => delivered(account.id, hook.id, i)));
    await page.getByRole('link', { name: /Older/ }).waitFor({ timeout: 20000 });
    await expect(page.locator('#delivery-log tbody tr').count()).resolves.toBe(50);
    await page.locator('[data-live="health"]', { hasText: '51' }).waitFor({ timeout: 20000 });
    await expect(page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).resolves.toBe(
      true,
    );
    await screenshot(page, 'live-filled');

    // Nothing changed since: the same question answers 304, without a body.
    const answers = await askedAgainWithEtag(page, `${w.baseUrl}/hooks/${hook.id}/live`);
    expect(answers).toEqual([200, 304, 0, true]);

    // Older leads to the next page, which still knows where it is.
    await page.getByRole('link', { name: /Older/ }).click();
    await waitUntil(async () => (await page.locator('#delivery-log tbody tr').count()) === 1, 'page two');
    await expect(page.locator('[data-log-position]').textContent()).resolves.toBe('Attempts 51–51');
    await page.getByRole('link', { name: '← Newer' }).click();
    await waitUntil(async () => (await page.locator('#delivery-log tbody tr').count()) === 50, 'page one');
    await expect(page.locator('[data-log-position]').textContent()).resolves.toBe('Attempts 1–50');
    // A filter that matches nothing says so (not "no deliveries yet").
    await page.goto(`${w.baseUrl}/hooks/${hook.id}?outcome=failed`);
    await expect(page.locator('#delivery-log .empty').textContent()).resolves.toContain(
      'No attempt matches these filters.',
    );
  });

  it('an edit made elsewhere: the open page shows the new name, address and request without a reload', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expect(page.locator('[data-live-status]').isVisible()).resolves.toBe(true);
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));

    await w.store.hooks.update(
      account.id,
      hook.id,
      { url: 'https://crm-v2.example.com/hook', description: 'CRM v2' },
      'test',
    );
    await page.getByRole('heading', { level: 1, name: 'CRM v2' }).waitFor({ timeout: 20000 });
    await expect(page.locator('.page-header .url').textContent()).resolves.toBe(
      'https://crm-v2.example.com/hook',
    );
    await expect(page.locator('[data-live="settings"]').textContent()).resolves.toContain(
      'crm-v2.example.com',
    );
    await expect(page.locator('[data-request-preview]').textContent()).resolves.toContain(
      'host: crm-v2.example.com',
    );
    await expect(page.locator('[data-live="settings"]').textContent()).resolves.not.toContain(
      'https://crm.example.com',
    );
    await expect(page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).resolves.toBe(
      true,
    );

    // Without the page's script nothing updates, and the page does not say it does.
    const still = await browser.page(undefined, { javaScriptEnabled: false });
    await signIn(still, w.baseUrl, 'ops@acme.test', PASSWORD);
    await still.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expect(still.locator('[data-live-status]').isVisible()).resolves.toBe(false);
    await expect(still.getByText('Updates automatically').isVisible()).resolves.toBe(false);
  });

  it('a hook deleted elsewhere: the open page stops offering its actions and says it was deleted', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.getByRole('button', { name: 'Send test event' }).waitFor();

    expect(await w.store.hooks.remove(account.id, hook.id, 'test')).toBe(true);
    await page.getByRole('heading', { name: 'This hook was deleted' }).waitFor({ timeout: 20000 });
    await expect(page.getByRole('button', { name: 'Send test event' }).count()).resolves.toBe(0);
  });

  it('rebuilds nothing the server did not change, in a zone that is not UTC', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    await w.history.writer.write(Array.from({ length: 3 }, (_, i) => delivered(account.id, hook.id, i)));
    // The health chart's hours are UTC hours: at the turn of one the server does change it, rightly.
    await clearOfTheHourTurn(60_000);
    // The page writes every time in the browser's zone; the server writes them in UTC.
    const page = await browser.page(undefined, { timezoneId: 'Australia/Adelaide' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const parts = await page.$$('[data-live]');
    expect(parts.length).toBeGreaterThanOrEqual(4);
    const [health, row] = [await page.$('[data-health]'), await page.$('#delivery-log tbody tr')];
    const refreshed = () => page.locator('[data-live-url]').getAttribute('data-refreshed');
    const first = await waitUntil(refreshed, 'the first refresh', 20000);
    await waitUntil(async () => (await refreshed()) !== first, 'a second refresh', 20000);
    // The same elements are on the page, with their times still in the page's zone.
    for (const el of [health!, row!]) await expect(el.evaluate((e) => e.isConnected)).resolves.toBe(true);
    await expect(page.locator('[data-zone-name]').first().textContent()).resolves.toBe('Australia/Adelaide');

    // A change still arrives, in the page's zone.
    await w.history.writer.write([delivered(account.id, hook.id, 9)]);
    await waitUntil(
      async () => (await page.locator('#chart-desc').textContent())?.includes('4 delivered and 0 not'),
      'the health chart to count the fourth delivery',
    );
    await expect(health!.evaluate((e) => e.isConnected)).resolves.toBe(false);
    await expect(page.locator('[data-zone-name]').first().textContent()).resolves.toBe('Australia/Adelaide');
  });

  it("an attempt's page links to the same event's send-again, and back", async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const first = { ...delivered(account.id, hook.id, 1), outcome: 'failed' as const, status_code: 503 };
    const again = {
      ...delivered(account.id, hook.id, 2),
      event_id: first.event_id,
      trigger: 'manual' as const,
    };
    await w.history.writer.write([first, again]);
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${first.attempt_id}`);
    const others = page.locator('[data-other-attempts]');
    await expect(others.textContent()).resolves.toContain('(sent again)');
    await others.getByRole('link').click();
    await page.waitForURL(new RegExp(again.attempt_id));
    await page.locator('[data-other-attempts]').getByRole('link').click();
    await page.waitForURL(new RegExp(first.attempt_id));
    await screenshot(page, 'attempt-other-attempts');
  });
});

/** Waits, when the next UTC hour is less than `ms` away, until it has begun. */
async function clearOfTheHourTurn(ms: number): Promise<void> {
  const HOUR = 3600_000;
  const toTurn = HOUR - (Date.now() % HOUR);
  if (toTurn < ms) await new Promise((resolve) => setTimeout(resolve, toTurn + 1000));
}
