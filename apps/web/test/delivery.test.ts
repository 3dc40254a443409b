import { startReceiver } from '@hookline/testing';
import { USER_AGENT } from '@hookline/core';
import { screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

describe('sending a test event (browser, real worker)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('delivers it to a local receiver and the log shows it without a reload, as the preview said', async () => {
    const receiver = await startReceiver((_req, i) =>
      i === 1
        ? { kind: 'status', status: 500, body: 'upstream database unavailable' }
        : {
            kind: 'status',
            status: 200,
            body: '{"received":true}',
            headers: { 'content-type': 'application/json' },
          },
    );
    w.ctx.closeLater(receiver);
    w.runWorker();
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);

    await page.getByRole('link', { name: 'Create your first hook' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url('/hooks/calls'));
    await page.getByLabel('Description').fill('Local receiver');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.getByRole('heading', { name: 'Local receiver', level: 1 }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook).toMatchObject({
      url: receiver.url('/hooks/calls'),
      format: 'json',
      auth: { scheme: 'none' },
    });

    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Test event sent.');
    // The page was rendered before the worker delivered; the row arrives through the live page.
    const row = page.locator('#delivery-log tr', { hasText: 'test event' });
    await row.waitFor({ timeout: 20000 });
    await expect(row.getAttribute('data-outcome')).resolves.toBe('delivered');
    await expect(row.locator('td[data-label="Status"]').textContent()).resolves.toContain('200');
    await expect(row.locator('td[data-label="Response"]').textContent()).resolves.toContain(
      '{"received":true}',
    );

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    const preview = (await page.locator('[data-request-preview]').textContent()) ?? '';
    expect(preview.split('\n')[0]).toBe(`POST ${received!.path} HTTP/1.1`);
    for (const name of ['host', 'Content-Type', 'X-Service-Event-Type', 'User-Agent'])
      expect(preview).toContain(`${name}: ${String(received!.headers[name.toLowerCase()])}`);
    // Every header the endpoint got, in the order it got them, spelt as it got them, and no other (the
    // preview says "exactly as sent"): undici writes host, connection and content-length in lower case.
    const previewNames = preview
      .split('\n')
      .slice(1)
      .filter((line) => /^[\w-]+: /.test(line))
      .map((line) => line.slice(0, line.indexOf(':')));
    expect(previewNames).toEqual(received!.rawHeaders.filter((_, i) => i % 2 === 0));
    expect(received!.headers['user-agent']).toBe(USER_AGENT);
    expect(JSON.parse(received!.body.toString())).toMatchObject({
      EventType: 'call_created',
      direction: 'outbound',
    });

    // Two more, the first of which fails, for a log that shows both outcomes.
    for (const n of [2, 3]) {
      await page.getByRole('button', { name: 'Send test event' }).click();
      await receiver.waitFor(n);
    }
    await page.locator('#delivery-log tr[data-outcome="failed"]').waitFor({ timeout: 20000 });
    await page.locator('#delivery-log tr[data-outcome]').nth(2).waitFor({ timeout: 20000 });
    await expect(
      page.locator('#delivery-log tr[data-outcome="failed"] td[data-label="Status"]').textContent(),
    ).resolves.toContain('500');
    await screenshot(page, 'hook-deliveries');

    await page.getByRole('link', { name: 'Hooks', exact: true }).click();
    await page.locator('.hook-row').getByText('Last delivery').waitFor();
    await screenshot(page, 'hooks-list');
  });
});
