import type { Page } from 'playwright-core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { DESKTOP, PHONE, screenshot, signIn, useBrowser } from './support/browser';
import { postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const CALL = {
  call_id: 'c-1',
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
};

describe('a suspended hook (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  /** A hook that failed 4 times in a row and was suspended, with 3 events held since. */
  async function suspendedHook() {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      description: 'CRM call log',
    });
    await w.suspend(hook.id, 4);
    for (const call_id of ['held-1', 'held-2', 'held-3'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id } });
    // In UTC whatever the machine's zone: the time picker's label and default are read as UTC below (other
    // zones: time-zone.test.ts).
    const page = await browser.page(DESKTOP, { timezoneId: 'UTC' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    return { account, hook, page };
  }

  async function expectBanner(page: Page) {
    const banner = page.locator('[data-suspension-banner]');
    await banner.getByRole('heading', { name: 'Deliveries to this hook are suspended' }).waitFor();
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('4 consecutive failures over 10 minutes; the last: the endpoint answered 503.');
    // The reason is a sentence; when it happened is shown as a time of its own, in the reader's time zone.
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).toContain('3 held events are waiting.');
    await expect(banner.locator('.failures li').count()).resolves.toBe(4);
    await expect(banner.locator('.failures li').first().textContent()).resolves.toContain('HTTP 503');
  }

  it('is flagged on the list and shows a banner with the failures; re-enable delivers the held events', async () => {
    const { hook, page } = await suspendedHook();
    await page.locator(`[data-hook-id="${hook.id}"]`).getByText('Suspended', { exact: true }).waitFor();
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('1 hook is suspended.');
    await screenshot(page, 'hooks-list-suspended');

    await page.getByRole('link', { name: 'CRM call log' }).click();
    await expectBanner(page);
    await screenshot(page, 'hook-suspended');
    // On a phone the re-enable choices come first, visible without scrolling; no test event that would be held.
    await page.setViewportSize(PHONE);
    for (const name of [/^Test & re-enable/, /^Re-enable and deliver/, /^Re-enable and discard/]) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    }
    await expect(page.getByRole('button', { name: 'Send test event' }).count()).resolves.toBe(0);
    // Each held event is a card there, its labels in the page's type, not in the monospaced call id's.
    const labelFonts = (await page.evaluate(
      `[...document.querySelectorAll('[data-held-call] td')].map((td) => getComputedStyle(td, '::before').fontFamily)`,
    )) as string[];
    expect(labelFonts).toHaveLength(9);
    expect(new Set(labelFonts).size).toBe(1);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Re-enable and deliver the 3 held events' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Hook re-enabled. The 3 held events are queued for delivery, in order; their outcomes appear in the log below.',
    );
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain('Active');
    await expect(page.locator('[data-suspension-banner]').count()).resolves.toBe(0);
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(false);
    // No worker runs in this test, so the three events wait, unpaused, for one.
    await expect(w.hookQueues.waitingCount(hook.id)).resolves.toBe(3);

    await page.getByRole('link', { name: 'Activity' }).click();
    const enabled = page.locator('[data-kind="hook.enabled"]');
    await expect(enabled.textContent()).resolves.toContain('held events delivered in order');
    await expect(enabled.textContent()).resolves.toContain('by you');
    await expect(page.locator('[data-kind="hook.suspended"]').textContent()).resolves.toContain(
      'by hookline, automatically',
    );
    await screenshot(page, 'activity');
  });

  // The banner keeps a streak's latest failures: a longer one says so, its count being in the reason above.
  it('says the failures it lists are the last ones when the run had more', async () => {
    const account = await w.account('ops@acme.test');
    const long = await w.hook(account.id, { url: 'https://crm.example.com/long' });
    const short = await w.hook(account.id, { url: 'https://crm.example.com/short' });
    await w.suspend(long.id, 13);
    await w.suspend(short.id, 4);
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = async (id: string) =>
      (
        await (await fetch(`${w.baseUrl}/hooks/${id}`, { headers: { cookie: session.cookie } })).text()
      ).replace(/\s+/g, ' ');
    const longPage = await page(long.id);
    expect(longPage).toContain('13 consecutive failures');
    expect(longPage).toContain('The last 10 failures of the run that caused it:');
    const list = /<ul class="failures">.*?<\/ul>/.exec(longPage)![0];
    expect(list.match(/<li>/g)).toHaveLength(10);
    expect(await page(short.id)).toContain('The failures that caused it:');
  });

  it('re-enable discarding the held events, after confirming: they are logged as discarded and never sent', async () => {
    const { hook, page } = await suspendedHook();
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expectBanner(page);

    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Re-enable and discard them' }).click();
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(true);

    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Discard 3 held events? They will never be delivered.');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Re-enable and discard them' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Hook re-enabled. The 3 held events were discarded.',
    );
    await expect(page.locator('#delivery-log tr[data-outcome="discarded"]').count()).resolves.toBe(3);
    await expect(w.hookQueues.waitingCount(hook.id)).resolves.toBe(0);
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(false);
  });

  it('re-enable from a chosen time: older held events are discarded, the newer ones queued in order', async () => {
    const { account, hook, page } = await suspendedHook();
    // Two more events held after a gap; the time picker is set between the first three and these.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const boundary = new Date(Math.ceil(Date.now() / 1000) * 1000);
    await new Promise((resolve) => setTimeout(resolve, boundary.getTime() - Date.now() + 5));
    for (const call_id of ['recent-1', 'recent-2'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id } });
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const picker = page.getByLabel('Deliver only events accepted since (UTC)');
    // By default: the moment of the suspension, so everything held since then would go (this browser is in UTC).
    // (Chromium leaves out ":00" seconds: a suspension in the first second of a minute shows as "…T01:05".)
    const suspendedAt = (await w.store.hooks.get(account.id, hook.id))!.suspended_at!.slice(0, 19);
    expect([suspendedAt, suspendedAt.replace(/:00$/, '')]).toContain(await picker.inputValue());
    await screenshot(page, 'suspension-since');
    await picker.fill(boundary.toISOString().slice(0, 19));
    await page.getByRole('button', { name: 'Re-enable, discarding older events' }).click();
    const before = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      dateStyle: 'medium',
      timeStyle: 'medium',
    }).format(boundary);
    await expect(page.getByRole('status').first().textContent()).resolves.toBe(
      `Hook re-enabled. 3 held events accepted before ${before} (UTC) were discarded; 2 held events accepted ` +
        'since then are queued for delivery, in order.',
    );
    await expect(page.locator('#delivery-log tr[data-outcome="discarded"]').count()).resolves.toBe(3);
    const queue = w.hookQueues.open(hook.id);
    try {
      const waiting = await queue.getJobs(['waiting'], 0, -1, true);
      const calls = waiting.map(
        (j) => (j.data as { event: { fields: { call_id: string } } }).event.fields.call_id,
      );
      expect(calls).toEqual(['recent-1', 'recent-2']);
    } finally {
      await queue.close();
    }
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(false);
  });

  it('shows a hook half-way to a suspension as failing, on the list and on its page', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      description: 'CRM call log',
    });
    // What the monitor leaves on a streak that reached half the threshold (see apps/monitor's tests).
    await w.ctx.redis.hset(w.keys.hookStreak(hook.id), 'warned', Date.now());
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await expect(page.locator('.badge-warn', { hasText: 'Failing' }).count()).resolves.toBe(1);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain('Failing');
    await w.ctx.redis.hdel(w.keys.hookStreak(hook.id), 'warned');
    await page.reload();
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain('Active');
  });

  it('Test & re-enable: a failing probe leaves the hook suspended with nothing sent; a passing one re-enables', async () => {
    let up = false;
    const receiver = await startReceiver(() => ({ kind: 'status', status: up ? 200 : 503 }));
    w.ctx.closeLater(receiver);
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: receiver.url('/hook'), description: 'CRM call log' });
    await w.suspend(hook.id, 4);
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-1' } });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.getByRole('button', { name: 'Test & re-enable (then deliver the 1 held event)' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'The endpoint did not accept the test event: it answered 503 (Service Unavailable). The hook stays suspended and nothing held was sent; fix the endpoint, then try again.',
    );
    // The attempt is one click away.
    await page.getByRole('link', { name: 'See the test attempt.' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(page.locator('main').textContent()).resolves.toContain('503');
    await page.goBack();
    await screenshot(page, 'probe-failed');
    expect(receiver.requests).toHaveLength(1);
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(true);
    await expect(w.hookQueues.waitingCount(hook.id)).resolves.toBe(1);

    up = true;
    await page.getByRole('button', { name: 'Test & re-enable (then deliver the 1 held event)' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook re-enabled.');
    expect(receiver.requests).toHaveLength(2);
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(false);
  });

  it('notices by itself when the hook it shows is suspended meanwhile', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain('Active');

    await w.suspend(hook.id, 4);
    await page.locator('[data-suspension-banner]').waitFor({ timeout: 20000 });
    await waitUntil(
      async () => (await page.locator('[data-hook-state]').textContent())?.includes('Suspended'),
      'badge',
    );
  });

  it('an admin pause shows the reason the admin gave, offers no re-enable, and the customer cannot lift it', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/hook',
      description: 'CRM call log',
    });
    await w.control.suspend(hook.id, 'paused by admin: your endpoint is being migrated', 'admin:ops');
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-1' } });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const banner = page.locator('[data-suspension-banner]');
    await banner.getByRole('heading', { name: 'An administrator paused deliveries to this hook' }).waitFor();
    await expect(banner.textContent()).resolves.toContain(
      'The reason given: “your endpoint is being migrated”.',
    );
    await expect(banner.textContent()).resolves.toContain('you cannot resume it yourself');
    await expect(page.getByRole('button', { name: /re-enable/i }).count()).resolves.toBe(0);
    await expect(page.locator('[data-hook-state]').textContent()).resolves.toContain(
      'Paused by an administrator',
    );
    // The event published during the pause is listed as held by the pause, not by a suspension.
    const held = page.locator('[data-held-events]');
    await expect(held.textContent()).resolves.toMatch(
      /1 event accepted while the hook is\s+paused by an administrator/,
    );
    await expect(held.textContent()).resolves.not.toContain('suspended');
    await screenshot(page, 'admin-paused');
    // The list tells an admin's pause from a suspension too.
    await page.goto(`${w.baseUrl}/`);
    const row = page.locator(`[data-hook-id="${hook.id}"]`);
    await expect(row.textContent()).resolves.toContain('Paused by an administrator');
    await expect(row.textContent()).resolves.not.toContain('Suspended');

    // Posted anyway (a page from before the pause): refused, nothing changes.
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const res = await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, {
      held: 'deliver',
      seen_suspended_at: (await w.store.hooks.get(account.id, hook.id))!.suspended_at!,
      seen_held: '1',
    });
    expect(res.status).toBe(303);
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(true);
    const after = await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } });
    expect(await after.text()).toContain('only an administrator can resume it');
    // Posted without what the page saw (no page offers it): the same refusal, not "choose again".
    await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, { held: 'deliver' });
    await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(true);
    const again = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(again).toContain('only an administrator can resume it');
    expect(again).not.toContain('Choose again');
  });
});
