import { waitUntil } from '@hookline/testing';
import { screenshot, signIn, typedTime, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One zone per page (§15): what a visitor reads in a row, typed into a filter or the "since" picker, means
// the same instant. Browsers in zones ahead of and behind UTC.
describe.each(['Europe/Paris', 'America/New_York'])('a browser in %s (one time zone per page)', (zone) => {
  const w = useWebsite();
  const browser = useBrowser();

  it('a time read in a log row, typed into From and Until, finds that row', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const now = Date.now();
    const records = [3, 2, 1].map((hoursAgo, i) =>
      deliveredAttempt(account.id, hook.id, now - hoursAgo * 3600_000 + 123, `call-${i}`),
    );
    await w.store.historyOutbox.append(hook.id, records);
    const page = await browser.page(undefined, { timezoneId: zone });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await waitUntil(async () => (await page.locator('#delivery-log tbody tr').count()) === 3, 'three rows');
    await expect(page.locator('.zone-note').textContent()).resolves.toContain(`Times are in ${zone}.`);

    const middle = page.locator(`#delivery-log tr[data-event-id="${records[1]!.event_id}"] time`);
    const shown = (await middle.textContent()) ?? '';
    await page.getByLabel(`From (${zone})`).fill(typedTime(shown));
    await page.getByLabel(`Until (${zone})`).fill(typedTime(shown));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/since=/);
    const found = await page
      .locator('#delivery-log tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
    expect(found).toEqual([records[1]!.event_id]);
    // The form shows back what was typed, in the same zone.
    // (Chromium leaves out ":00" seconds.)
    const typed = typedTime(shown);
    expect([typed, typed.replace(/:00$/, '')]).toContain(
      await page.getByLabel(`From (${zone})`).inputValue(),
    );
    if (zone === 'Europe/Paris') await screenshot(page, 'log-filtered-paris');

    // The filtered view is a link: opened by a browser in another zone it shows the same instants in that
    // zone, and filtering again from it finds the same row.
    const elsewhere = zone === 'Europe/Paris' ? 'Asia/Kolkata' : 'Australia/Adelaide';
    const other = await browser.page(undefined, { timezoneId: elsewhere });
    await signIn(other, w.baseUrl, 'ops@acme.test', PASSWORD);
    await other.goto(page.url());
    const row = other.locator(`#delivery-log tr[data-event-id="${records[1]!.event_id}"] time`);
    const there = typedTime((await row.textContent()) ?? '');
    const from = other.locator('input[name="since"]');
    expect([there, there.replace(/:00$/, '')]).toContain(await from.inputValue());
    await other.getByRole('button', { name: 'Filter' }).click();
    await other.waitForURL(/tz=/);
    // Named as its people name it: Chromium reports India's zone by its old name, Asia/Calcutta.
    expect(new URL(other.url()).searchParams.get('tz')).toBe(elsewhere);
    await expect(other.locator('.zone-note').textContent()).resolves.toContain(`Times are in ${elsewhere}.`);
    await expect(
      other
        .locator('#delivery-log tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id'))),
    ).resolves.toEqual([records[1]!.event_id]);
  });

  it('a "since" picked from a held event’s time delivers that event and the later ones, discarding the earlier', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    await w.suspend(hook.id, 4);
    for (const [i, call_id] of ['held-1', 'held-2', 'held-3'].entries()) {
      if (i > 0) await sleep(1100);
      await w.producer.publish(account.id, {
        type: 'call_created',
        data: {
          call_id,
          direction: 'outbound',
          from: 'jonas1',
          from_cnam: 'Jonas 1',
          to: '78791245',
          rate: '0.0',
        },
      });
    }
    const page = await browser.page(undefined, { timezoneId: zone });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const held = page.locator('[data-held-events] tbody tr');
    await expect(
      held.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-held-call'))),
    ).resolves.toEqual(['held-1', 'held-2', 'held-3']);
    const picker = page.getByLabel(`Deliver only events accepted since (${zone})`);
    // It starts at the suspension, shown in this zone as everywhere on the page.
    const suspendedAt = page.locator('[data-suspension-banner] time').first();
    const start = typedTime((await suspendedAt.textContent()) ?? '');
    expect([start, start.replace(/:00$/, '')]).toContain(await picker.inputValue());
    if (zone === 'Europe/Paris') await screenshot(page, 'held-events-paris');

    const second = (await held.nth(1).locator('time').textContent()) ?? '';
    await picker.fill(typedTime(second));
    await page.getByRole('button', { name: 'Re-enable, discarding older events' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      `(${zone}) was discarded; 2 held events accepted since then are queued for delivery, in order.`,
    );
    await expect(page.locator('#delivery-log tr[data-outcome="discarded"]').count()).resolves.toBe(1);
    const queue = w.hookQueues.open(hook.id);
    try {
      const waiting = await queue.getJobs(['waiting'], 0, -1, true);
      const calls = waiting.map(
        (j) => (j.data as { event: { fields: { call_id: string } } }).event.fields.call_id,
      );
      expect(calls).toEqual(['held-2', 'held-3']);
    } finally {
      await queue.close();
    }
  });
});
