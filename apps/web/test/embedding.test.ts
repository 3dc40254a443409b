import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { startReceiver } from '@hookline/testing';
import { expectNoAxeViolations, screenshot, useBrowser } from './support/browser';
import { useWebsite } from './support/website';

jest.setTimeout(60000);

// The operator's page on another origin (another loopback address: another site to the browser) shows the
// website in an iframe, opened by a sign-in link. Chromium blocks third-party cookies here, so the session
// lives in a partitioned cookie; the CSRF token and the Origin check still guard every form.

/** A page on `host` that frames whatever URL it is given, and a form aimed at the frame (the CSRF attempt). */
async function hostPage(host: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const target = url.searchParams.get('frame') ?? '';
    const post = url.searchParams.get('post') ?? '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Operator</title><h1>Phone system</h1>
      <iframe name="hl" src="${target}" width="1000" height="800"></iframe>
      <form id="attack" method="post" action="${post}" target="hl">
        <input name="url" value="http://127.0.0.1:9/stolen"><input name="format" value="json">
        <input name="auth_scheme" value="none"></form>`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

/** A GET to `url` with `host` as its Host header (the port kept), and its status and headers. */
function getAs(
  host: string,
  url: string,
  cookie?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    get(url, { headers: { host: `${host}:${port}`, ...(cookie ? { cookie } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    }).on('error', reject);
  });
}

describe('the website in the operator’s iframe', () => {
  let operator: { origin: string; server: Server };
  let stranger: { origin: string; server: Server };
  beforeAll(async () => {
    operator = await hostPage('127.0.0.2');
    stranger = await hostPage('127.0.0.3');
  });
  afterAll(() => {
    operator.server.close();
    stranger.server.close();
  });
  const w = useWebsite({ config: () => ({ HOOKLINE_FRAME_ANCESTORS: [operator.origin] }) });
  // hookline.test: the website under a name, which Chromium treats as an ordinary plain-http site (loopback
  // addresses are trusted like https, so a Secure cookie is kept there).
  const browser = useBrowser(['--host-resolver-rules=MAP hookline.test 127.0.0.1']);

  async function framed(page: Page, host: string, link: string): Promise<Frame> {
    await page.goto(
      `${host}/?frame=${encodeURIComponent(link)}&post=${encodeURIComponent(`${w.baseUrl}/hooks`)}`,
    );
    const frame = await (await page.waitForSelector('iframe[name="hl"]')).contentFrame();
    return frame!;
  }

  it('a customer creates a hook and sends a test inside the frame; the frame’s page cannot post for them', async () => {
    const receiver = w.ctx.closeLater(await startReceiver());
    const account = await w.account('ops@acme.test');
    const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
    const page = await browser.page();
    const frame = await framed(page, operator.origin, `${w.baseUrl}/portal/${link.token}`);

    await frame.getByRole('link', { name: 'Create your first hook' }).click();
    await frame.getByLabel('Endpoint URL').fill(receiver.url('/calls'));
    await frame.getByLabel('Description').fill('CRM in the frame');
    await frame.getByRole('button', { name: 'Create hook' }).click();
    await frame.getByRole('heading', { name: 'CRM in the frame', level: 1 }).waitFor();
    await frame.getByRole('button', { name: 'Send test event' }).click();
    await frame.getByText(/Test event sent/).waitFor();

    const [hook] = await w.store.hooks.list(account.id);
    expect(hook).toMatchObject({ url: receiver.url('/calls'), description: 'CRM in the frame' });
    expect(await w.hookQueues.waitingCount(hook!.id)).toBe(1);
    const actions = (await w.audit.list(account.id, { limit: 10 })).data.map((e) => [e.action, e.actor.kind]);
    expect(actions).toEqual([
      ['hook.tested', 'portal_session'],
      ['hook.created', 'portal_session'],
      ['portal_link.used', 'portal_session'],
    ]);
    // The cookie is the partitioned one, kept for the operator's site only.
    const cookies = await page.context().cookies(w.baseUrl);
    expect(cookies).toEqual([
      expect.objectContaining({
        name: 'hookline_session',
        sameSite: 'None',
        secure: true,
        partitionKey: 'http://127.0.0.2',
      }),
    ]);

    // The operator's page itself posts a form into the frame: it has the cookie but not the form token.
    await page.locator('#attack').evaluate((form) => (form as unknown as { submit(): void }).submit());
    await frame.getByText('This request was refused').waitFor();
    expect(await w.store.hooks.list(account.id)).toHaveLength(1);
    // Closed here: the website's own cleanup would otherwise wait for the browser's keep-alive connections.
    await page.context().close();
  });

  it('a page on an origin not listed cannot frame the website', async () => {
    const account = await w.account('ops@acme.test');
    const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
    const page = await browser.page();
    const refused = page.waitForEvent('console', (m) => m.text().includes('frame-ancestors'));
    const frame = await framed(page, stranger.origin, `${w.baseUrl}/portal/${link.token}`);
    expect((await refused).text()).toContain(
      `violates the following Content Security Policy directive: "frame-ancestors ${operator.origin}"`,
    );
    // Chromium shows its own error page in the frame instead of the website.
    expect(frame.url()).toBe('chrome-error://chromewebdata/');
    await page.context().close();
  });

  it('a sign-in link opened in the frame over plain http is not used: the page says so, and it works afterwards', async () => {
    const account = await w.account('ops@acme.test');
    const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
    const plainHttp = w.baseUrl.replace('127.0.0.1', 'hookline.test');
    const page = await browser.page();
    const frame = await framed(page, operator.origin, `${plainHttp}/portal/${link.token}`);
    await frame.getByRole('heading', { name: 'Your browser did not keep the sign-in' }).waitFor();
    // In a tab of its own on the same plain-http site: refused the same way, and still unused.
    const tab = await browser.page();
    await tab.goto(`${plainHttp}/portal/${link.token}`);
    await tab.getByRole('heading', { name: 'Your browser did not keep the sign-in' }).waitFor();
    await expectNoAxeViolations(tab);
    await screenshot(tab, 'portal-cookie-refused');
    expect(await w.audit.list(account.id, { limit: 10 })).toMatchObject({ data: [] });

    // The same link where the browser keeps the cookie (https, or here a loopback address): it signs in once.
    const frameAgain = await framed(page, operator.origin, `${w.baseUrl}/portal/${link.token}`);
    await frameAgain.getByRole('link', { name: 'Create your first hook' }).waitFor();
    expect((await w.audit.list(account.id, { limit: 10 })).data.map((e) => e.action)).toEqual([
      'portal_link.used',
    ]);
    expect((await page.context().cookies(w.baseUrl)).map((c) => c.name)).toEqual(['hookline_session']);
    await page.context().close();
    await tab.context().close();
  });

  it('over plain http at a name, uses a link only once a cookie set as its session would be came back', async () => {
    const account = await w.account('ops@acme.test');
    const link = await w.portalLinks.create(account.id, { readOnly: true, ttlSeconds: 300 });
    const open = (query: string, cookie?: string) =>
      getAs('hookline.test', `${w.baseUrl}/portal/${link.token}${query}`, cookie);
    const first = await open('');
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`/portal/${link.token}?checked=1`);
    const check = String(first.headers['set-cookie']);
    expect(check).toBe(
      'hookline_cookie_check=1; Path=/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=60',
    );
    // No cookie came back: refused, and the link is kept.
    expect((await open('?checked=1')).status).toBe(403);
    const signedIn = await open('?checked=1', check.split(';')[0]);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    expect(signedIn.headers['set-cookie']).toEqual([
      'hookline_cookie_check=; Path=/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=0',
      expect.stringMatching(
        /^hookline_session=[^;]+; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned$/,
      ),
      // An ordinary session cookie set before (the sign-in page's) is deleted: it names no live session.
      'hookline_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
    expect((await open('?checked=1', check.split(';')[0])).status).toBe(410);
    // On a loopback host (as over https) the cookie is kept, and a link is used at once.
    const other = await w.portalLinks.create(account.id, { readOnly: true, ttlSeconds: 300 });
    const direct = await getAs('127.0.0.1', `${w.baseUrl}/portal/${other.token}`);
    expect([direct.status, direct.headers.location]).toEqual([303, '/']);
  });

  it('a sign-in link opened in a tab of a browser that has visited the site signs in, again after signing out', async () => {
    // The operator's own site may send the customer to a link in a tab (a 303 to it). The sign-in page made an
    // ordinary session cookie here before, and the link's session is a partitioned one of the same name: the
    // browser sends both, and the link's must count.
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await page.goto(`${w.baseUrl}/login`);
    for (const round of [1, 2]) {
      const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
      await page.goto(`${w.baseUrl}/portal/${link.token}`);
      expect([round, new URL(page.url()).pathname]).toEqual([round, '/']);
      await page.getByRole('link', { name: 'Create your first hook' }).waitFor();
      // The ordinary cookie of the sign-in page is gone once the link's session began.
      const kept = (await page.context().cookies(w.baseUrl)).filter((c) => c.name === 'hookline_session');
      expect(kept.map((c) => c.partitionKey !== undefined)).toEqual([true]);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/signed-out/);
    }
    await page.context().close();
  });

  it('the sign-in page inside the frame offers no password form, which could never hold there', async () => {
    const page = await browser.page();
    const frame = await framed(page, operator.origin, `${w.baseUrl}/login`);
    const text = (await frame.locator('[data-framed-login]').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain("Signing in with a password does not work inside another site's page");
    await expect(frame.locator('input[type="password"]').count()).resolves.toBe(0);
    await expect(
      frame.getByRole('link', { name: 'sign in in a new tab' }).getAttribute('target'),
    ).resolves.toBe('_blank');
    // The same page in a tab of its own has the form.
    await page.goto(`${w.baseUrl}/login`);
    await expect(page.locator('input[type="password"]').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('answers with frame-ancestors naming exactly the listed origins, and no X-Frame-Options', async () => {
    const res = await fetch(`${w.baseUrl}/login`);
    expect(res.headers.get('content-security-policy')).toContain(`frame-ancestors ${operator.origin};`);
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});
