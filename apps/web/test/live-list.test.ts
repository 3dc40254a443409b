import { waitUntil } from '@hookline/testing';
import { askedAgainWithEtag, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

const CALL = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };

// §15 "live pages stay true": the hooks list follows its hooks' badges and held counts without a reload, and
// asks conditionally (an unchanged list answers 304).
describe('the hooks list left open (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('changes a badge and a held count without a reload; an unchanged list costs a 304', async () => {
    const account = await w.account('ops@acme.test');
    const crm = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const billing = await w.hook(account.id, {
      url: 'https://billing.example.com/in',
      description: 'Billing',
    });
    const page = await browser.page();
    const polls: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/hooks/live') polls.push(res.status());
    });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    const state = (id: string) => page.locator(`[data-live="state-${id}"]`);
    await expect(state(crm.id).textContent()).resolves.toContain('Active');
    // The history answers: its notice's place is empty (history-down.test.ts: filled while it does not).
    expect((await page.locator('[data-live="history"]').textContent())?.trim()).toBe('');
    // A mark on the window: gone if the page reloaded.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));

    // Half-way to a suspension, as the monitor records it: the badge turns Failing.
    await w.ctx.redis.hset(w.keys.hookStreak(crm.id), 'warned', Date.now());
    await state(crm.id).getByText('Failing', { exact: true }).waitFor({ timeout: 20000 });

    // Billing is suspended, then events are held for it: its badge, its count and the summary follow.
    await w.suspend(billing.id, 3);
    await state(billing.id).getByText('Suspended', { exact: true }).waitFor({ timeout: 20000 });
    await page.getByRole('alert').getByText('1 hook is suspended.').waitFor({ timeout: 20000 });
    for (const call_id of ['held-1', 'held-2'])
      await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id } });
    await state(billing.id).getByText('2 events held').waitFor({ timeout: 20000 });
    await expect(page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).resolves.toBe(
      true,
    );
    await screenshot(page, 'hooks-live');

    // Nothing changes now: the page's own next poll carries the ETag and is answered 304, without a body.
    const before = polls.length;
    await waitUntil(async () => polls.slice(before).includes(304), 'a 304 poll', 20000);
    const answers = await askedAgainWithEtag(page, `${w.baseUrl}/hooks/live`);
    expect(answers).toEqual([200, 304, 0, true]);

    // A hook added elsewhere changes the list's rows: the page loads again and shows it.
    await w.hook(account.id, { url: 'https://pbx.example.com/in', description: 'PBX' });
    await page.getByRole('link', { name: 'PBX' }).waitFor({ timeout: 20000 });
    await expect(page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).resolves.toBe(
      undefined,
    );
  });

  it('answers 401 to a signed-out poll and shows no other account’s hooks', async () => {
    const res = await fetch(`${w.baseUrl}/hooks/live`);
    expect(res.status).toBe(401);
    const mine = await w.account('ops@acme.test');
    const theirs = await w.account('other@globex.test', 'Globex');
    await w.hook(mine.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const other = await w.hook(theirs.id, { url: 'https://globex.example.com/in', description: 'Globex in' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    const body = await page.evaluate(async (url) => (await fetch(url)).text(), `${w.baseUrl}/hooks/live`);
    expect(body).toContain('data-live="state-');
    expect(body).not.toContain(other.id);
  });
});
