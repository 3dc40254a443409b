import { machineText, startReceiver } from '@hookline/testing';
import { expectNoAxeViolations, PHONE, screenshot, sentencesOf, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

// product.md §10: an attempt's page shows the response as it came: status, headers and the start of the body.
// The attempt here is a real one (Test & re-enable sends it through the deliverer to a real receiver), so
// the headers travel the whole way: the HTTP answer, the record builder, the history outbox, the page.
describe("an attempt's response headers (browser)", () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('shows the headers the endpoint answered with, cookie values masked, and how many were not kept', async () => {
    const extra = Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`X-Extra-${i + 1}`, `e${i + 1}`]));
    const receiver = await startReceiver(() => ({
      kind: 'status',
      status: 503,
      body: '{"error":"maintenance"}',
      headers: {
        'Retry-After': '120',
        'X-Request-Id': 'req-7f3a',
        'Set-Cookie': ['session=s3cr3t-session; Path=/; HttpOnly', 'region=eu'],
        'Content-Type': 'application/json',
        ...extra,
      },
    }));
    w.ctx.closeLater(receiver);
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: receiver.url('/hook'), description: 'CRM' });
    await w.suspend(hook.id, 4);

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.getByRole('button', { name: /^Test & re-enable/ }).click();
    await page.getByRole('link', { name: 'See the test attempt.' }).click();
    await page.getByRole('heading', { name: 'Attempt', level: 1 }).waitFor();

    const head = (await page.locator('[data-response-headers]').textContent()) ?? '';
    const lines = head.split('\n');
    await expect(page.locator('[data-response-status]').textContent()).resolves.toBe('Status code 503.');
    expect(lines.slice(0, 4)).toEqual([
      'retry-after: 120',
      'x-request-id: req-7f3a',
      'set-cookie: session=••••, region=••••',
      'content-type: application/json',
    ]);
    expect(lines).toHaveLength(30);
    expect(await page.content()).not.toContain('s3cr3t-session');
    await expect(page.locator('[data-headers-dropped]').textContent()).resolves.toMatch(
      /\d+ more headers came after these and were not kept/,
    );
    await expect(page.locator('[data-response]').textContent()).resolves.toBe('{"error":"maintenance"}');

    // The record the API answers from holds the same headers.
    const [probe] = (await w.reader.listForHook(hook.id, {}, { limit: 10 })).data.filter(
      (r) => r.trigger === 'probe',
    );
    const record = await w.reader.attempt(account.id, hook.id, probe!.attempt_id);
    expect(record?.response_headers).toMatchObject({ 'retry-after': '120', 'x-request-id': 'req-7f3a' });
    expect(record?.response_headers_dropped).toBeGreaterThan(0);

    expect(machineText(await sentencesOf(page))).toEqual([]);
    await expectNoAxeViolations(page);
    await page.setViewportSize(PHONE);
    await expectNoAxeViolations(page);
    // The headers scroll inside their box on a phone: the page itself stays 375 px wide.
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(375);
    await screenshot(page, 'attempt-response-headers');
  });
});
