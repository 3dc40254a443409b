import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// An entry as the website records a customer's change: it waits in Redis while the database is down.
const changedBySomeone = (
  w: ReturnType<typeof useWebsite>,
  accountId: string,
  hookId: string,
  action: 'hook.created' | 'hook.updated',
  detail: Record<string, unknown>,
) =>
  w.audit.record({
    account_id: accountId,
    action,
    hook_id: hookId,
    actor: { kind: 'account_user' },
    address: '192.0.2.7',
    detail,
  });

// PostgreSQL (the delivery history and the audit log) does not answer while Redis does: the customer still
// reaches their hooks, and each page says in plain words what cannot be read right now.
describe('the website while the history database is down', () => {
  const w = useWebsite({ historyDown: true });

  it('lists the hooks and says their last delivery cannot be read right now', async () => {
    const account = await w.account('ops@acme.test');
    await w.hook(account.id, { url: 'https://crm.acme.test/calls', description: 'CRM' });
    await w.hook(account.id, { url: 'https://billing.acme.test/in' });
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);

    const res = await fetch(`${w.baseUrl}/`, { headers: { cookie: session.cookie } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('>CRM</a>');
    expect(page).toContain('https://crm.acme.test/calls');
    expect(page).toContain('https://billing.acme.test/in');
    expect(page).toContain('Your delivery history cannot be read right now,');
    expect(page.match(/Last delivery cannot be read right now/g)).toHaveLength(2);

    const live = await fetch(`${w.baseUrl}/hooks/live`, { headers: { cookie: session.cookie } });
    expect(live.status).toBe(200);
    const parts = await live.text();
    expect(parts).toContain('Last delivery cannot be read right now');
    // The notice is a live part too: an open list shows it, and drops it, as the database goes and comes back.
    expect(/<template data-live="history">(.*?)<\/template>/s.exec(parts)?.[1]).toContain(
      'Your delivery history cannot be read right now,',
    );
  });

  it('shows on the Activity page the changes still waiting in Redis, saying older ones cannot be read', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.acme.test/calls', description: 'CRM' });
    await changedBySomeone(w, account.id, hook.id, 'hook.updated', { fields: ['description'] });
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);

    const res = await fetch(`${w.baseUrl}/activity`, { headers: { cookie: session.cookie } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Older changes cannot be read right now.');
    expect(page).toContain('data-kind="hook.updated"');
    expect(page).toContain('from 192.0.2.7');
  });
});

describe("a hook's page while the history database is down", () => {
  const w = useWebsite({ historyDown: true });

  it('shows the hook and its settings, and says its log and health cannot be read right now', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.acme.test/calls', description: 'CRM' });
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);

    for (const path of [`/hooks/${hook.id}`, `/hooks/${hook.id}/live`]) {
      const res = await fetch(`${w.baseUrl}${path}`, { headers: { cookie: session.cookie } });
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('https://crm.acme.test/calls');
      expect(page.match(/The delivery history cannot be read right now/g)).toHaveLength(2);
    }
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(page).toContain('<h1>CRM</h1>');
    expect(page).toContain(`href="/hooks/${hook.id}/edit"`);
  });
});

describe('the pages a customer sees while the history database is down, in a browser', () => {
  const w = useWebsite({ historyDown: true });
  const browser = useBrowser();

  it('reads the hooks list, a hook and the Activity page with their notices, accessibly', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.acme.test/calls', description: 'CRM' });
    await w.hook(account.id, { url: 'https://billing.acme.test/in' });
    await changedBySomeone(w, account.id, hook.id, 'hook.created', { url: hook.url, description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    for (const [path, name, notice] of [
      ['/', 'history-down-hooks', 'Your delivery history cannot be read right now,'],
      [`/hooks/${hook.id}`, 'history-down-hook', 'The delivery history cannot be read right now'],
      ['/activity', 'history-down-activity', 'Older changes cannot be read right now.'],
    ] as const) {
      await page.goto(`${w.baseUrl}${path}`);
      await page.getByText(notice).first().waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, name);
    }
  });
});
