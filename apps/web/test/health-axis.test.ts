import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AttemptRecord } from '@hookline/core';
import { machineText } from '@hookline/testing';
import {
  DESKTOP,
  expectNoAxeViolations,
  PHONE,
  screenshot,
  SCREENSHOTS,
  sentencesOf,
  signIn,
  useBrowser,
} from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

const HOUR = 3_600_000;

// product.md §10 and §15: the health chart has a time axis in the page's one time zone, legible on a phone;
// §11: the page says what makes a hook Failing and what suspends it, in the configured numbers.
describe("a hook's health chart and suspension rule (browser)", () => {
  const w = useWebsite({
    config: () => ({ HOOKLINE_SUSPEND_AFTER_FAILURES: 6, HOOKLINE_SUSPEND_AFTER_MS: 300_000 }),
  });
  const browser = useBrowser();

  const attempt = (accountId: string, hookId: string, at: number, ok: boolean): AttemptRecord => ({
    ...deliveredAttempt(accountId, hookId, at, 'c-1'),
    duration_ms: 30,
    ...(ok ? {} : { outcome: 'failed' as const, status_code: 500 }),
  });

  /** The health card alone at 375 and 1280 px (the whole page is too long to look at the chart in). */
  async function cardShots(page: Page, name: string) {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page
        .locator('[data-health]')
        .screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`) });
    }
    await page.setViewportSize(PHONE);
  }

  /** The axis labels the page shows, each with its box, in page order. */
  const axisLabels = async (page: Page) =>
    (await page.evaluate(`[...document.querySelectorAll('[data-axis-at]')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        return {
          at: el.getAttribute('data-axis-at'),
          text: el.textContent.trim(),
          left: r.left,
          right: r.right,
          shown: r.width > 0 && getComputedStyle(el.parentElement).display !== 'none',
          fontSize: Number.parseFloat(getComputedStyle(el).fontSize),
        };
      })
      .filter((l) => l.shown)`)) as {
      at: string;
      text: string;
      left: number;
      right: number;
      fontSize: number;
    }[];

  it('labels the hours in the browser’s zone, legibly at 375 px, and states the suspension rule', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const now = Date.now();
    await w.history.writer.write(
      Array.from({ length: 40 }, (_, i) =>
        attempt(account.id, hook.id, now - ((i * 37 * 60_000) % (23 * HOUR)), i % 5 !== 0),
      ),
    );
    // Adelaide is 10 h 30 ahead of UTC (in November): its labels cannot be mistaken for UTC's.
    const zone = 'Australia/Adelaide';
    const page = await browser.page(PHONE, { timezoneId: zone });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const health = page.locator('[data-health]');
    await expect(health.locator('figcaption').textContent()).resolves.toContain(`times in ${zone}`);

    const inZone = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const labels = await axisLabels(page);
      expect(labels.length).toBeGreaterThanOrEqual(3);
      for (const label of labels) {
        expect(label.text).toBe(inZone.format(new Date(label.at)));
        expect(label.text).toMatch(/^\d{2}:30$/);
        expect(label.fontSize).toBeGreaterThanOrEqual(12);
        expect(label.left).toBeGreaterThanOrEqual(0);
        expect(label.right).toBeLessThanOrEqual(size.width);
      }
      // Apart from one another, with room to read them.
      for (let i = 1; i < labels.length; i += 1)
        expect(labels[i]!.left - labels[i - 1]!.right).toBeGreaterThanOrEqual(8);
    }
    await page.setViewportSize(PHONE);
    await screenshot(page, 'health-axis-24h');
    await cardShots(page, 'health-card-24h');

    // The rule, in the configured numbers, under health.
    const rule =
      'A hook shows as Failing when 3 events in a row are not delivered, and is suspended when 6 events in a ' +
      'row are not delivered, the first of them at least 5 minutes earlier. One delivered event ends the run.';
    await expect(health.locator('[data-suspension-rule]').textContent()).resolves.toBe(rule);

    // Seven days: a label a day, every other one on a phone, still apart.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}?window=7d`);
    const days = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const labels = await axisLabels(page);
      expect(labels.length).toBeGreaterThanOrEqual(size === PHONE ? 3 : 6);
      for (const label of labels) expect(label.text).toBe(days.format(new Date(label.at)));
      for (let i = 1; i < labels.length; i += 1)
        expect(labels[i]!.left - labels[i - 1]!.right).toBeGreaterThanOrEqual(8);
    }
    await page.setViewportSize(PHONE);
    await screenshot(page, 'health-axis-7d');
    await cardShots(page, 'health-card-7d');
    expect(machineText(await sentencesOf(page))).toEqual([]);
    await expectNoAxeViolations(page);

    // Suspended: the banner says the same rule under its reason. The open page is left first: it would load
    // itself again on seeing the suspension, and abort a navigation made at that moment.
    await page.goto('about:blank');
    await w.suspend(hook.id, 6);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await expect(page.locator('[data-suspension-banner] [data-suspension-rule]').textContent()).resolves.toBe(
      rule,
    );
    expect(machineText(await sentencesOf(page))).toEqual([]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'suspension-rule');
    await page.locator('[data-suspension-banner]').screenshot({
      path: join(SCREENSHOTS, 'suspension-rule-banner-375.png'),
    });
  });
});
