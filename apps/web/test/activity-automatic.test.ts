import { startReceiver, waitUntil } from '@hookline/testing';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

const CALL = {
  call_id: 'c-1',
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
};
/** Entries written a few milliseconds apart, so that their order in time is the order they were made in. */
const apart = () => new Promise((resolve) => setTimeout(resolve, 5));

// README "Inside the operator's own site" → Audit log: the Activity page shows people's changes beside what
// hookline did by itself (failing, suspended, stalled), in words and in time order, on every page.
describe('the Activity page and what hookline did by itself', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('shows the failing and suspended entries in words, between the changes before and after them', async () => {
    let up = false;
    const receiver = w.ctx.closeLater(
      await startReceiver(() => ({ kind: 'status', status: up ? 200 : 500 })),
    );
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill(receiver.url('/hook'));
    await page.getByLabel('Description').fill('CRM call log');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.getByRole('heading', { name: 'CRM call log', level: 1 }).waitFor();
    const [hook] = await w.store.hooks.list(account.id);

    // The receiver answers 500 to real deliveries.
    w.runWorker();
    await w.producer.publish(account.id, { type: 'call_created', data: CALL });
    await waitUntil(() => receiver.requests.length >= 1, 'a delivery answered 500');
    await apart();
    // Half-way to a suspension, the entry the monitor writes (suspension's recordWarning)…
    await w.store.activity.append(account.id, {
      kind: 'hook.failing',
      at: new Date().toISOString(),
      hook_id: hook!.id,
      actor: 'monitor',
      detail:
        '5 consecutive failures over 3 minutes; the last: the endpoint answered 500; it will be suspended if this goes on',
    });
    await apart();
    // …then the suspension, by the monitor's own path (HookControl.suspend, actor monitor).
    await w.suspend(hook!.id, 10);
    await apart();

    up = true;
    await page.goto(`${w.baseUrl}/hooks/${hook!.id}`);
    await page.getByRole('button', { name: /^Test & re-enable/ }).click();
    await page.getByRole('status').first().waitFor();

    await page.goto(`${w.baseUrl}/activity`);
    const rows = page.locator('ul.feed > li');
    const kinds = await rows.evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    expect(kinds).toEqual(['hook.enabled', 'hook.suspended', 'hook.failing', 'hook.created']);
    const text = (await page.locator('main').textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('Hook failing CRM call log by hookline, automatically');
    expect(text).toContain('the endpoint answered 500; it will be suspended if this goes on');
    expect(text).toContain('Hook suspended CRM call log by hookline, automatically');
    expect(text).toContain('Hook re-enabled CRM call log by you from 127.0.0.1');
    await expectNoAxeViolations(page);
    await screenshot(page, 'activity-automatic');
  });

  it('keeps the time order across pages: an automatic entry older than the first page is on a later one', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    await w.suspend(hook.id, 3);
    await apart();
    // Fifty changes after the suspension fill the first page.
    for (let i = 0; i < 50; i++)
      await w.audit.record({
        account_id: account.id,
        action: 'hook.updated',
        hook_id: hook.id,
        actor: { kind: 'operator_key', key: 'sha256:0123456789abcdef' },
        detail: { fields: ['description'] },
      });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/activity`);
    await expect(page.locator('ul.feed > li').count()).resolves.toBe(50);
    await expect(page.locator('[data-kind="hook.suspended"]').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Older →' }).click();
    const kinds = await page
      .locator('ul.feed > li')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    expect(kinds).toEqual(['hook.suspended']);
    await expect(page.getByRole('link', { name: 'Older →' }).count()).resolves.toBe(0);
  });
});
