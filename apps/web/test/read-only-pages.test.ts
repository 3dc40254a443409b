import type { Page } from 'playwright-core';
import { waitUntil } from '@hookline/testing';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(120000);

// A read-only sign-in link's session sees everything and changes nothing (product.md §16): no page offers a
// change, in the HTML the server sends (not hidden by a stylesheet) and after a live page updates in place
// (§15). A page whose whole purpose is a change says that this view can only look. A session that may change
// things still has every control.

const CALL = {
  call_id: 'c-1',
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
};

/**
 * What on the page as the server made it could change something: forms that post (sign-out aside), buttons
 * that submit them, links to a page that only makes a change, and confirmations of a change.
 */
async function changeControls(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const found = new Set();
    const add = (el) => found.add(el);
    for (const form of document.querySelectorAll('form')) {
      if ((form.getAttribute('method') || 'get').toLowerCase() === 'post' && form.getAttribute('action') !== '/logout')
        add(form);
    }
    for (const button of document.querySelectorAll('button')) {
      const form = button.closest('form');
      const safe = button.getAttribute('type') === 'button' || (form &&
        ((form.getAttribute('method') || 'get').toLowerCase() === 'get' || form.getAttribute('action') === '/logout'));
      if (!safe) add(button);
    }
    for (const link of document.querySelectorAll('a[href]:not([href^="#"])')) {
      const path = new URL(link.href).pathname;
      if (/\\/(new|edit|delete|rotate|resend|enable|test)$/.test(path)) add(link);
    }
    for (const el of document.querySelectorAll('[data-confirm]')) add(el);
    return [...found].map((el) => el.outerHTML.slice(0, 120));
  })()`)) as string[];
}

describe('a read-only session’s pages (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  /** An account with an active signing hook with deliveries, a suspended hook holding events, and an admin's pause. */
  async function accountWithHooks() {
    const account = await w.account('ops@acme.test');
    const active = await w.hook(account.id, {
      url: 'https://crm.example.com/calls',
      description: 'CRM call log',
      signing: true,
    });
    const now = Date.now();
    await w.store.historyOutbox.append(active.id, [
      deliveredAttempt(account.id, active.id, now - 60_000, 'call-a'),
      deliveredAttempt(account.id, active.id, now - 30_000, 'call-b'),
    ]);
    const suspended = await w.hook(account.id, {
      url: 'https://billing.example.com/hook',
      description: 'Billing',
    });
    await w.suspend(suspended.id, 4);
    const paused = await w.hook(account.id, { url: 'https://old.example.com/hook', description: 'Old CRM' });
    await w.control.suspend(paused.id, 'paused by admin: moving the endpoint', 'admin:ops');
    for (const call_id of ['held-1', 'held-2', 'held-3'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id } });
    const [attempt] = (await w.reader.listForHook(active.id, {}, { limit: 1 })).data;
    const [failed] = (await w.reader.listForHook(suspended.id, {}, { limit: 1 })).data;
    return { account, active, suspended, paused, attempt: attempt!, failed: failed! };
  }

  async function readOnlyPage(accountId: string): Promise<Page> {
    const link = await w.portalLinks.create(accountId, { readOnly: true, ttlSeconds: 300 });
    const page = await browser.page();
    await page.goto(`${w.baseUrl}/portal/${link.token}`);
    await page.getByRole('heading', { name: 'Hooks', level: 1 }).waitFor();
    return page;
  }

  /** Visits `path` and expects a page that offers no change, passes axe, and says this view only looks. */
  async function expectOnlyLooking(page: Page, path: string): Promise<void> {
    const res = await page.goto(`${w.baseUrl}${path}`);
    expect([path, res?.status()]).toEqual([path, 200]);
    expect([path, await changeControls(page)]).toEqual([path, []]);
    await expect(
      page.getByText('You can see everything here, but not change anything.').count(),
    ).resolves.toBe(1);
    // Sign-out is the one thing such a session may do.
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
    await expectNoAxeViolations(page);
  }

  it('no page offers a change, and the pages that only change say this view can only look', async () => {
    const { account, active, suspended, paused, attempt, failed } = await accountWithHooks();
    const page = await readOnlyPage(account.id);

    for (const path of [
      '/',
      `/hooks/${active.id}`,
      `/hooks/${active.id}?window=7d`,
      `/hooks/${suspended.id}`,
      `/hooks/${paused.id}`,
      `/hooks/${active.id}/deliveries/${attempt.attempt_id}`,
      `/hooks/${suspended.id}/deliveries/${failed.attempt_id}`,
      '/activity',
      '/account',
      '/search?call_id=call-a',
    ])
      await expectOnlyLooking(page, path);

    // Everything is still shown: the suspended hook's failures and held events, the account's details; the
    // words ask for nothing this view cannot do.
    await page.goto(`${w.baseUrl}/`);
    await expect(page.locator('[data-live="summary"]').innerText()).resolves.toContain(
      '1 hook is suspended. Events for it are held until it is re-enabled. 1 hook was paused by an ' +
        'administrator. Only an administrator can resume it.',
    );
    await page.goto(`${w.baseUrl}/hooks/${suspended.id}`);
    const banner = page.locator('[data-suspension-banner]');
    await expect(banner.innerText()).resolves.toContain(
      'Nothing is sent to this endpoint until it is re-enabled. 3 held events are waiting.',
    );
    await expect(banner.locator('.failures li').count()).resolves.toBe(4);
    await expect(page.locator('[data-held-events] tbody tr').count()).resolves.toBe(3);
    await page.goto(`${w.baseUrl}/account`);
    await expect(page.locator('main').textContent()).resolves.toContain('ops@acme.test');
    await expect(
      page.getByText('This view can only look, so the password cannot be changed here.').count(),
    ).resolves.toBe(1);

    // The once-only secret page, typed in by hand: its "shown already" note asks nothing this view cannot do.
    await page.goto(`${w.baseUrl}/hooks/${active.id}/signing-secret`);
    const note = await page.getByText('A signing secret is shown only once').innerText();
    expect(note).toContain('A signing secret is shown only once, and this one was shown already.');
    expect(note).toContain('Someone who can change this hook can rotate the secret to get a new one.');
    expect(note).not.toContain('If you did not copy it, rotate');

    for (const path of ['/hooks/new', `/hooks/${active.id}/edit`, `/hooks/${active.id}/delete`]) {
      const res = await page.goto(`${w.baseUrl}${path}`);
      expect([path, res?.status()]).toEqual([path, 403]);
      expect([path, await changeControls(page)]).toEqual([path, []]);
      await page.getByRole('heading', { name: 'You can look, but not change anything here' }).waitFor();
      await expect(page.locator('input:not([type="hidden"])').count()).resolves.toBe(0);
      await expectNoAxeViolations(page);
    }
  });

  it('an account without hooks is not offered its first hook', async () => {
    const account = await w.account('empty@acme.test');
    const page = await readOnlyPage(account.id);
    await page.getByRole('heading', { name: 'No hooks yet' }).waitFor();
    expect(await changeControls(page)).toEqual([]);
    await expectNoAxeViolations(page);
  });

  it('a live page that updates in place brings no control back', async () => {
    const { account, suspended } = await accountWithHooks();
    const page = await readOnlyPage(account.id);
    await page.goto(`${w.baseUrl}/hooks/${suspended.id}`);
    const banner = page.locator('[data-suspension-banner]');
    await expect(banner.textContent()).resolves.toContain('3 held events are waiting.');
    await screenshot(page, 'read-only-hook-suspended');

    // One more event is held while the page is open: the banner and the held list are swapped in place.
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-4' } });
    await waitUntil(
      async () => ((await banner.textContent()) ?? '').includes('4 held events are waiting.'),
      'the banner to count the fourth held event',
    );
    await expect(page.locator('[data-held-events] tbody tr').count()).resolves.toBe(4);
    expect(await changeControls(page)).toEqual([]);
    // The hook is re-enabled elsewhere: the page follows it and offers nothing either.
    await w.control.enable(account.id, suspended.id, 'discard', 'customer:other');
    await page.locator('[data-hook-state="active"]').waitFor({ timeout: 15000 });
    await page.waitForLoadState('load');
    expect(await changeControls(page)).toEqual([]);
    await screenshot(page, 'read-only-hook-active');
  });

  it('a session that may change things still has every control', async () => {
    const { account, active, suspended, attempt } = await accountWithHooks();
    const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
    const linked = await browser.page();
    await linked.goto(`${w.baseUrl}/portal/${link.token}`);
    await linked.getByRole('heading', { name: 'Hooks', level: 1 }).waitFor();
    const signedIn = await browser.page();
    await signIn(signedIn, w.baseUrl, 'ops@acme.test', PASSWORD);

    for (const page of [linked, signedIn]) {
      const controls = async (path: string) => {
        await page.goto(`${w.baseUrl}${path}`);
        return (await changeControls(page)).join('\n');
      };
      const list = await controls('/');
      expect(list).toContain('href="/hooks/new"');
      const hook = await controls(`/hooks/${active.id}`);
      for (const control of [
        `action="/hooks/${active.id}/test"`,
        `action="/hooks/${active.id}/signing-secret/rotate"`,
        `href="/hooks/${active.id}/edit"`,
        `href="/hooks/${active.id}/delete"`,
      ])
        expect(hook).toContain(control);
      const held = await controls(`/hooks/${suspended.id}`);
      expect(held.match(new RegExp(`action="/hooks/${suspended.id}/enable"`, 'g'))).toHaveLength(4);
      expect(await controls(`/hooks/${active.id}/deliveries/${attempt.attempt_id}`)).toContain('/resend"');
      expect(await controls('/account')).toContain('action="/account/password"');
      expect(await controls('/hooks/new')).toContain('action="/hooks"');
      expect(await controls(`/hooks/${active.id}/edit`)).toContain(`action="/hooks/${active.id}/edit"`);
      expect(await controls(`/hooks/${active.id}/delete`)).toContain(`action="/hooks/${active.id}/delete"`);
      await expect(
        page.getByText('You can see everything here, but not change anything.').count(),
      ).resolves.toBe(0);
    }
  });
});
