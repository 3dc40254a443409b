import type { Page } from 'playwright-core';
import { waitUntil } from '@hookline/testing';
import { signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

// The nights Paris changes its clocks in 2026: on 29 March 02:00 becomes 03:00 (at 01:00 UTC), so 02:30 is
// never shown; on 25 October 03:00 becomes 02:00 again (at 01:00 UTC), so 02:30 is shown twice. A time typed
// into the log's filters is read like Temporal's `compatible`: a skipped one moved forward by the jump, a
// repeated one as the earlier.
describe('a browser in Europe/Paris filtering the log on the nights its clocks change', () => {
  const w = useWebsite();
  const browser = useBrowser();

  /** The hook's log with one delivered attempt per call id at each instant, opened in Paris. */
  async function logWith(
    attempts: Record<string, string>,
  ): Promise<{ page: Page; callOf: Map<string, string> }> {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const records = Object.entries(attempts).map(([callId, at]) =>
      deliveredAttempt(account.id, hook.id, Date.parse(at), callId),
    );
    await w.store.historyOutbox.append(hook.id, records);
    const page = await browser.page(undefined, { timezoneId: 'Europe/Paris' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const rows = page.locator('#delivery-log tbody tr');
    await waitUntil(async () => (await rows.count()) === records.length, 'every attempt in the log');
    return { page, callOf: new Map(records.map((r) => [r.event_id, r.call_id!])) };
  }

  async function filter(page: Page, fields: Partial<Record<'From' | 'Until', string>>): Promise<void> {
    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(`${label} (Europe/Paris)`).fill(value);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/tz=Europe%2FParis/);
  }

  async function callsShown(page: Page, callOf: Map<string, string>): Promise<string[]> {
    const ids = await page
      .locator('#delivery-log tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id') ?? ''));
    return ids.map((id) => callOf.get(id) ?? id);
  }

  it('From 02:30 on the night 02:00 becomes 03:00 means 03:30 summer time, and the form says so', async () => {
    const { page, callOf } = await logWith({
      'at-01:45-winter': '2026-03-29T00:45:00Z',
      'at-03:15-summer': '2026-03-29T01:15:00Z',
      'at-03:45-summer': '2026-03-29T01:45:00Z',
    });
    await filter(page, { From: '2026-03-29T02:30' });
    await expect(callsShown(page, callOf)).resolves.toEqual(['at-03:45-summer']);
    await expect(page.getByLabel('From (Europe/Paris)').inputValue()).resolves.toBe('2026-03-29T03:30');

    // Until a skipped time likewise: up to 03:30 summer time, the end of the minute typed included.
    await filter(page, { From: '', Until: '2026-03-29T02:30' });
    await expect(callsShown(page, callOf)).resolves.toEqual(['at-03:15-summer', 'at-01:45-winter']);
    await expect(page.getByLabel('Until (Europe/Paris)').inputValue()).resolves.toBe('2026-03-29T03:30');
  });

  it('02:30 to 02:50 on the night 03:00 becomes 02:00 again means the first time round, in summer time', async () => {
    const { page, callOf } = await logWith({
      'at-02:15-summer': '2026-10-25T00:15:00Z',
      'at-02:45-summer': '2026-10-25T00:45:00Z',
      'at-02:45-winter': '2026-10-25T01:45:00Z',
    });
    await filter(page, { From: '2026-10-25T02:30', Until: '2026-10-25T02:50' });
    await expect(callsShown(page, callOf)).resolves.toEqual(['at-02:45-summer']);
    await expect(page.getByLabel('From (Europe/Paris)').inputValue()).resolves.toBe('2026-10-25T02:30');
    await expect(page.getByLabel('Until (Europe/Paris)').inputValue()).resolves.toBe('2026-10-25T02:50');
  });
});
