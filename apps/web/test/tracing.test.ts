import { newId, type AttemptRecord } from '@hookline/core';
import { signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// Tracing on the website (product.md §19): an attempt's page names its trace, and with
// HOOKLINE_TRACE_PROPAGATE=true the request preview shows the traceparent every attempt sends.
describe('tracing on the website (browser)', () => {
  const w = useWebsite({ tracePropagate: true });
  const browser = useBrowser();
  const TRACE = '0af7651916cd43dd8448eb211c80319c';
  const SPAN = '53995c3f42cd8ad8';

  it("shows an attempt's trace id, and the traceparent header in the request preview", async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const at = Date.now() - 60_000;
    const traced: AttemptRecord = {
      attempt_id: newId('att', at),
      event_id: newId('evt', at),
      event_type: 'call_created',
      call_id: 'c-42',
      trigger: 'auto',
      outcome: 'delivered',
      status_code: 200,
      duration_ms: 40,
      attempted_at: new Date(at).toISOString(),
      account_id: account.id,
      hook_id: hook.id,
      request: {
        method: 'POST',
        url: 'https://crm.example.com/hook',
        headers: { 'Content-Type': 'application/json; charset=utf-8', traceparent: `00-${TRACE}-${SPAN}-01` },
        body: '{"EventType":"call_created","call_id":"c-42"}',
      },
      trace_id: TRACE,
      span_id: SPAN,
    };
    const untraced: AttemptRecord = { ...traced, attempt_id: newId('att', at + 1) };
    delete (untraced as { trace_id?: string }).trace_id;
    delete (untraced as { span_id?: string }).span_id;
    await w.history.writer.write([traced, untraced]);

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${traced.attempt_id}`);
    await expect(page.locator('[data-trace-id]').textContent()).resolves.toBe(TRACE);
    await expect(page.locator('[data-request]').textContent()).resolves.toContain(
      `traceparent: 00-${TRACE}-${SPAN}-01`,
    );
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${untraced.attempt_id}`);
    await page.locator('[data-request]').waitFor();
    await expect(page.locator('[data-trace-id]').count()).resolves.toBe(0);

    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const preview = (await page.locator('[data-request-preview]').textContent()) ?? '';
    expect(preview).toContain('User-Agent: hookline/0.1\ntraceparent: 00-<trace id>-<span id>-01\n');
  });
});
