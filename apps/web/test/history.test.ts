import { newId, type AttemptRecord } from '@hookline/core';
import { screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// The delivery history on the website (product.md §10), over the real PostgreSQL: the search by call id across
// the account, a hook's filtered log, one attempt in full with "send again", and the hook's health.

const BODY = '{"EventType":"call_created","call_id":"c-42","direction":"outbound","rate":0.0100}';

function record(accountId: string, hookId: string, minutesAgo: number, extra: Partial<AttemptRecord> = {}) {
  const at = Date.now() - minutesAgo * 60_000;
  return {
    attempt_id: newId('att', at),
    event_id: newId('evt', at),
    event_type: 'call_created',
    call_id: 'c-42',
    trigger: 'auto',
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 40,
    attempted_at: new Date(at).toISOString(),
    response_excerpt: '{"ok":true}',
    account_id: accountId,
    hook_id: hookId,
    request: {
      method: 'POST',
      url: 'https://crm.example.com/hook',
      headers: { 'Content-Type': 'application/json; charset=utf-8', Authorization: 'Bearer ••••oken' },
      body: BODY,
    },
    event_fields: { EventType: 'call_created', call_id: 'c-42', direction: 'outbound', rate: '0.0100' },
    ...extra,
  } satisfies AttemptRecord;
}

describe('the delivery history on the website (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('finds a call across hooks, opens an attempt in full, sends it again; filters the log; shows health', async () => {
    const account = await w.account('ops@acme.test');
    const crm = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const billing = await w.hook(account.id, {
      url: 'https://billing.example.com/in',
      description: 'Billing',
    });
    const other = await w.account('other@else.test', 'Someone else');
    const theirs = await w.hook(other.id, { url: 'https://else.example.com/hook' });
    const failed = record(account.id, crm.id, 30, { outcome: 'failed', status_code: 503, error: 'HTTP 503' });
    const delivered = record(account.id, crm.id, 20);
    await w.history.writer.write([
      failed,
      delivered,
      record(account.id, billing.id, 10),
      record(other.id, theirs.id, 5),
      record(account.id, crm.id, 15, { call_id: 'c-7' }),
    ]);

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.getByLabel('Find a call').fill('c-42');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.locator('[data-search-results] tbody tr');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(3);
    const text = (await page.locator('[data-search-results]').textContent()) ?? '';
    expect(text).toContain('Billing');
    expect(text).not.toContain('else.example.com');
    await screenshot(page, 'history-search');

    await page
      .locator(`tr[data-attempt-id="${failed.attempt_id}"]`)
      .getByRole('link', { name: 'Details' })
      .click();
    await expect(page.locator('[data-request]').textContent()).resolves.toBe(
      `POST /hook HTTP/1.1\nHost: crm.example.com\nContent-Type: application/json; charset=utf-8\nAuthorization: Bearer ••••oken\n\n${BODY}`,
    );
    await expect(page.locator('[data-response]').textContent()).resolves.toBe('{"ok":true}');
    await screenshot(page, 'history-attempt');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Send again' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'The event is queued again',
    );
    const queue = w.hookQueues.open(crm.id);
    try {
      const [job] = await queue.getJobs(['waiting'], 0, -1, true);
      expect(job?.data).toMatchObject({
        trigger: 'manual',
        event: { id: failed.event_id, fields: failed.event_fields },
      });
    } finally {
      await queue.close();
    }

    await page.goto(`${w.baseUrl}/hooks/${crm.id}?outcome=failed`);
    await expect(page.locator('#delivery-log tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('#delivery-log tr[data-outcome="failed"]').count()).resolves.toBe(1);
    await expect(page.locator('[data-success-rate]').textContent()).resolves.toBe('66.7%');
    await expect(page.locator('svg.health-chart rect.bad').count()).resolves.toBe(24);
    await page.goto(`${w.baseUrl}/hooks/${crm.id}?window=7d`);
    await expect(page.locator('svg.health-chart rect.ok').count()).resolves.toBe(7 * 24);
    await screenshot(page, 'history-hook');

    await page.goto(`${w.baseUrl}/hooks/${crm.id}?since=yesterday`);
    await expect(page.locator('#since-error').textContent()).resolves.toBe('Enter a date and time.');
    const since = page.locator('form.log-filters input[name="since"]');
    await expect(since.getAttribute('type')).resolves.toBe('datetime-local');
    await expect(since.getAttribute('value')).resolves.toBe('yesterday');
    await expect(since.getAttribute('aria-invalid')).resolves.toBe('true');
    const callId = page.locator('form.log-filters input[name="call_id"]');
    await expect(callId.getAttribute('maxlength')).resolves.toBe('256');
    await expect(callId.getAttribute('aria-invalid')).resolves.toBeNull();
    const stranger = await page.goto(`${w.baseUrl}/hooks/${theirs.id}/deliveries/${failed.attempt_id}`);
    expect(stranger?.status()).toBe(404);
    const notThisHook = await page.goto(`${w.baseUrl}/hooks/${billing.id}/deliveries/${failed.attempt_id}`);
    expect(notThisHook?.status()).toBe(404);
  });
});
