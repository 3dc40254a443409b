import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

describe('the new-hook page', () => {
  const w = useWebsite();

  it('tells the delivery deadline this deployment uses (HOOKLINE_DELIVERY_TIMEOUT_MS: 2500 here)', async () => {
    await w.account('ops@acme.test');
    const { cookie } = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = await (await fetch(`${w.baseUrl}/hooks/new`, { headers: { cookie } })).text();
    expect(page).toContain('status within <strong>2.5 seconds</strong>');
  });
});
