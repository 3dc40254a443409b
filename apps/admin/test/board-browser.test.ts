import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HookJobs } from '@hookline/redis';
import { axeViolations, launchChromium } from '@hookline/testing';
import { ADMIN, useAdmin } from '../src/test-support/admin-harness';

// Bull Board as an admin sees it, in Debian's Chromium driven by playwright-core (which downloads no browser).
// Git-ignored; CI keeps them as artifacts for a person to look at.
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? resolve(__dirname, '../../../artifacts/screenshots');

// Every action hookline refuses on a hook queue, as Bull Board words its buttons and menu items.
const REFUSED =
  /add job|retry|promote|clean|empty|obliterate|duplicate|remove|concurrency|rate limit|update data|reschedule|priority/i;

const a = useAdmin();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60000);
afterAll(async () => {
  await browser?.close();
});

async function boardPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({
    httpCredentials: { username: ADMIN.user, password: ADMIN.password },
    viewport,
  });
  a.ctx.onCleanup(() => context.close());
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

/** The labels of every control on the page that offers a refused action, every menu opened in turn. */
async function refusedActionsOffered(page: Page): Promise<string[]> {
  const offered = new Set<string>();
  const collect = async () => {
    const labels = await page.$$eval('button, [role="menuitem"], a', (controls) =>
      controls.map((c) =>
        [c.textContent, c.getAttribute('aria-label'), c.getAttribute('title')].filter(Boolean).join(' '),
      ),
    );
    for (const label of labels) if (REFUSED.test(label)) offered.add(label.trim());
  };
  // Bull Board re-renders as its data arrives (it polls): menus are counted once the page has settled, and each
  // is found again by its index right before it is opened.
  await page.waitForLoadState('networkidle');
  await collect();
  const menus = page.locator('[aria-haspopup="menu"]');
  for (let i = 0; i < (await menus.count()); i += 1) {
    await menus.nth(i).click();
    await page.locator('[role="menu"]').first().waitFor();
    await collect();
    await page.keyboard.press('Escape');
    await page.locator('[role="menu"]').first().waitFor({ state: 'detached' });
  }
  return [...offered];
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 1280;
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

describe('Bull Board in a browser', () => {
  it('offers a hook queue Resume or Pause and nothing hookline would refuse; both work', async () => {
    await a.mount();
    await a.control.suspend(a.hook.id, '10 consecutive failures over 12 minutes', 'monitor');
    await a.publish('c1', 'c2');
    const page = await boardPage();
    await page.goto(`${a.origin}/admin/queues/queue/${encodeURIComponent(a.keys.hookQueueName(a.hook.id))}`);

    // Bull Board's own page: the queue and its held events, read-only.
    await page.getByText(`CRM (${a.hook.id})`).first().waitFor();
    await page.getByText('deliver.v1').first().waitFor();
    expect(await refusedActionsOffered(page)).toEqual([]);
    const panel = page.getByRole('region', { name: 'Hook queue' });
    await panel.getByText('Suspended').waitFor();
    await screenshot(page, 'admin-board-suspended');

    await panel.getByRole('button', { name: `Resume CRM (${a.hook.id})` }).click();
    await panel.getByText('Resumed: held events are being delivered.').waitFor();
    expect(await a.store.hooks.get(a.hook.account_id, a.hook.id)).toMatchObject({ state: 'active' });
    const [enabled] = await a.store.activity.list(a.hook.account_id, 1);
    expect(enabled).toMatchObject({ kind: 'hook.enabled', actor: 'admin:ops' });

    await panel.getByRole('button', { name: `Pause CRM (${a.hook.id})` }).click();
    await panel.getByText('Paused: the hook is suspended.').waitFor();
    expect(await a.store.hooks.get(a.hook.account_id, a.hook.id)).toMatchObject({
      state: 'suspended',
      suspended_reason: 'paused by admin',
    });
    expect(await refusedActionsOffered(page)).toEqual([]);
  });

  it('offers nothing hookline would refuse on the overview either', async () => {
    await a.mount();
    await a.publish('c1');
    const page = await boardPage();
    await page.goto(`${a.origin}/admin/queues?hook=${a.hook.id}`);
    await page.getByText(`CRM (${a.hook.id})`).first().waitFor();
    expect(await refusedActionsOffered(page)).toEqual([]);
    // The buttons belong to one queue's page, not to the overview.
    expect(await page.getByRole('region', { name: 'Hook queue' }).isVisible()).toBe(false);
  });

  // Eight pages in a browser, each checked by axe: a busy machine takes more than jest's default 30 s.
  it('/admin and the Bull Board pages hookline serves fit a phone and pass axe-core', async () => {
    await a.mount();
    // A hook an admin looks at has usually failed: Bull Board's failed count and failed jobs' reasons are drawn
    // in reds of its own, which must pass axe too. One delivery failed, as a worker records it.
    await a.publish('c0');
    const jobs = new HookJobs(a.ctx.redis, a.keys, 5_000);
    const taken = await jobs.take(a.hook.id, 'test:1');
    if (taken.kind !== 'job') throw new Error(`no job to fail: ${taken.kind}`);
    await jobs.finish(taken.job, { kind: 'failed', reason: 'failed 500' }, false);
    await a.control.suspend(a.hook.id, 'paused by admin: endpoint migration', 'admin:ops');
    await a.publish('c1');
    for (const viewport of [
      { width: 375, height: 800 },
      { width: 1280, height: 900 },
    ]) {
      const page = await boardPage(viewport);
      await page.goto(`${a.origin}/admin?account=${a.hook.account_id}`);
      await page.getByRole('heading', { name: 'Hooks found' }).waitFor();
      // Nothing wider than the screen: the page is laid out for the phone, not shrunk from a desktop.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      // Nor a table that scrolls sideways inside the page: every column readable without scrolling.
      expect(
        await page.evaluate(
          "[...document.querySelectorAll('table')].map((t) => t.scrollWidth <= t.parentElement.clientWidth)",
        ),
      ).toEqual([true, true]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'admin-home');

      await page.goto(`${a.origin}/admin/queues?hook=${a.hook.id}`);
      await page.getByText(`CRM (${a.hook.id})`).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      // Every button a finger has to hit is 24 px in both directions at least (WCAG 2.5.8, as the website's).
      expect(
        await page.evaluate(
          "[...document.querySelectorAll('main button')].filter((b) => { const r = b.getBoundingClientRect(); return r.width > 0 && (r.width < 24 || r.height < 24); }).map((b) => b.getAttribute('aria-label') || b.innerText)",
        ),
      ).toEqual([]);
      await screenshot(page, 'admin-board-overview');

      await page.goto(
        `${a.origin}/admin/queues/queue/${encodeURIComponent(a.keys.hookQueueName(a.hook.id))}`,
      );
      await page.getByRole('region', { name: 'Hook queue' }).getByText('Suspended').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'admin-board-queue');

      await page.goto(
        `${a.origin}/admin/queues/queue/${encodeURIComponent(a.keys.hookQueueName(a.hook.id))}?status=failed`,
      );
      await page.getByText('failed 500').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
    }
  }, 120_000);
});
