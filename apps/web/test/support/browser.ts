import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, launchChromium } from '@hookline/testing';

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 800 };

// Git-ignored; CI keeps them as artifacts for a person to look at. SCREENSHOTS_DIR puts them elsewhere.
export const SCREENSHOTS =
  process.env.SCREENSHOTS_DIR ?? resolve(__dirname, '../../../../artifacts/screenshots');

/** One Debian Chromium per test file (`args`: more flags for it); a fresh context (cookies, storage) per test. */
export function useBrowser(args: readonly string[] = []) {
  const b = { browser: undefined as unknown as Browser, contexts: [] as BrowserContext[] };
  beforeAll(async () => {
    b.browser = await launchChromium(args);
  }, 60000);
  afterEach(async () => {
    for (const context of b.contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await b.browser?.close();
  });
  return {
    /** `timezoneId`: the browser's time zone (the machine's by default); `javaScriptEnabled`: true by default. */
    async page(
      viewport = DESKTOP,
      options: { timezoneId?: string; javaScriptEnabled?: boolean } = {},
    ): Promise<Page> {
      const context = await b.browser.newContext({ viewport, ...options });
      context.setDefaultTimeout(15000);
      b.contexts.push(context);
      return context.newPage();
    },
  };
}

/**
 * A live page's poll asked twice from the page, the second time with the first answer's ETag: the statuses,
 * the second body's length, and whether the ETag was more than empty quotes.
 */
export async function askedAgainWithEtag(
  page: Page,
  url: string,
): Promise<[number, number, number, boolean]> {
  return page.evaluate(async (url) => {
    const first = await fetch(url, { cache: 'no-store' } as RequestInit);
    const etag = first.headers.get('ETag') ?? '';
    await first.text();
    const again = await fetch(url, {
      cache: 'no-store',
      headers: { 'If-None-Match': etag },
    } as RequestInit);
    return [first.status, again.status, (await again.text()).length, etag.length > 2] as [
      number,
      number,
      number,
      boolean,
    ];
  }, url);
}

/** Full-page screenshots at 1280 px and 375 px wide. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ['1280', DESKTOP],
    ['375', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Hooks', level: 1 }).waitFor();
}

/** Every visible form control has a label a screen reader announces. */
export async function expectEveryControlLabelled(page: Page): Promise<void> {
  const unlabelled = await page.$$eval('input:not([type="hidden"]), textarea, select', (controls) =>
    controls
      .filter(
        (c) =>
          !(c as unknown as { labels?: { length: number } | null }).labels?.length &&
          !c.getAttribute('aria-label'),
      )
      .map((c) => c.outerHTML),
  );
  expect(unlabelled).toEqual([]);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time as the pages show it ("25 Nov 2026, 20:52:03") as a person types it into a date-time field. */
export function typedTime(shown: string): string {
  const m = /^(\d{1,2}) (\w{3}) (\d{4}),? (\d{2}):(\d{2}):(\d{2})$/.exec(shown.trim());
  if (!m) throw new Error(`not a time as the pages show it: ${shown}`);
  const month = String(MONTHS.indexOf(m[2]!) + 1).padStart(2, '0');
  return `${m[3]}-${month}-${m[1]!.padStart(2, '0')}T${m[4]}:${m[5]}:${m[6]}`;
}

/** axe-core finds no violation on the page as it is now. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/**
 * The text a customer reads as sentences: the page without code, addresses shown in monospace (ids, URLs,
 * secrets) and form values.
 */
export async function sentencesOf(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll('code, pre, .mono, .url, input, textarea, select, script, style').forEach((e) => e.remove());
    return body.textContent || '';
  })()`)) as string;
}
