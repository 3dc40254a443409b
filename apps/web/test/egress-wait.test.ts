import { EgressWaits } from '@hookline/redis';
import { signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// While a worker keeps a hook's next event waiting on the egress proxy, the hook's page says so and why.
describe('a hook whose deliveries wait on the egress proxy (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('shows a banner with the proxy’s reason in plain words while the wait lasts, and none after', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const waits = new EgressWaits(w.ctx.redis, w.keys);
    const reason = 'the egress proxy 10.0.0.9:3128 cannot be reached: ECONNREFUSED';
    // As a worker records it on a refused try.
    await waits.waiting(hook.id, reason, new Date('2026-11-25T10:00:00Z'), 60_000, 'unreachable');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const banner = (await page.locator('[data-egress-wait]').textContent())!.replace(/\s+/g, ' ');
    expect(banner).toContain('Deliveries wait on the egress proxy.');
    expect(banner).toContain("has not let this hook's next event out (it cannot be reached).");
    // The recorded reason is the operator's: no system code or proxy address on the customer's page.
    expect(banner).not.toContain('ECONNREFUSED');
    expect(banner).not.toContain('10.0.0.9');
    expect(banner).toContain('Nothing was sent and nothing counts against your endpoint');

    await waits.waiting(
      hook.id,
      'the egress proxy 10.0.0.9:3128 refused CONNECT 203.0.113.7:443: 407 Proxy Authentication Required',
      new Date('2026-11-25T10:00:00Z'),
      60_000,
      'refused',
    );
    await page.reload();
    await expect(page.locator('[data-egress-wait]').textContent()).resolves.toMatch(
      /has not let this hook's next event out \(it refuses to let deliveries through\)\./,
    );

    await waits.clear(hook.id);
    await page.reload();
    await expect(page.locator('[data-egress-wait]').count()).resolves.toBe(0);
  });
});
