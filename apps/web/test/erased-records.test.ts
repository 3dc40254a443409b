import { erasedRecord, newId, type AttemptRecord } from '@hookline/core';
import { signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// After an erasure (product.md §18) a record stays in the log as a stub, shown as erased: its outcome and time,
// nothing of what was sent or received; an event removed unsent shows the outcome Erased.
describe('erased records on the website (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('shows an emptied record as erased in the log and on its page, and a removed event as Erased', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const at = Date.now() - 60_000;
    const full: AttemptRecord = {
      attempt_id: newId('att', at),
      event_id: newId('evt', at),
      event_type: 'call_created',
      call_id: 'c-secret',
      trigger: 'auto',
      outcome: 'delivered',
      status_code: 200,
      duration_ms: 40,
      attempted_at: new Date(at).toISOString(),
      response_excerpt: '{"caller":"+15550100"}',
      account_id: account.id,
      hook_id: hook.id,
      request: {
        method: 'POST',
        url: 'https://crm.example.com/hook',
        headers: {},
        body: '{"from":"+15550100"}',
      },
    };
    const stub = erasedRecord(full, new Date());
    const removed: AttemptRecord = {
      ...erasedRecord(
        { ...full, attempt_id: newId('att', at + 1), event_id: newId('evt', at + 1) },
        new Date(),
      ),
      outcome: 'erased',
      attempted_at: new Date(at + 1).toISOString(),
    };
    await w.history.writer.write([stub, removed]);

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const delivered = page.locator(`tr[data-event-id="${stub.event_id}"]`);
    await expect(delivered.locator('[data-erased]').textContent()).resolves.toBe('Erased');
    await expect(
      page.locator(`tr[data-event-id="${removed.event_id}"]`).getAttribute('data-outcome'),
    ).resolves.toBe('erased');
    expect(await page.content()).not.toContain('+15550100');

    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${stub.attempt_id}`);
    await expect(page.locator('[data-erased]').textContent()).resolves.toContain('Erased on request');
    const content = await page.content();
    expect(content).not.toContain('+15550100');
    expect(content).not.toContain('c-secret');
    // An event removed before its turn was never sent: its page says so, not that what was sent is gone.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${removed.attempt_id}`);
    const unsent = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(unsent).toContain('Nothing was sent: the event was erased on request');
    expect(unsent).toContain('No response: nothing was sent.');
    expect(unsent).not.toContain('no longer kept');
    expect(unsent).not.toContain('0 ms');

    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${stub.attempt_id}`);
    // Nothing is offered that would be refused: an erased event cannot be sent again, and the page says why.
    await expect(page.getByRole('button', { name: 'Send again' }).count()).resolves.toBe(0);
    await expect(page.locator('[data-resend-refused]').textContent()).resolves.toBe(
      'This event was erased on request (personal data), so it cannot be sent again.',
    );
  });
});
