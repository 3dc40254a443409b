import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { useBrowser } from './support/browser';

jest.setTimeout(60000);

// Why a sign-in link's session inside the operator's iframe is a partitioned cookie (README "Embedding"),
// checked in this Chromium on every run: a site (127.0.0.1) framed by another site's page (127.0.0.2) sets
// three cookies the way a session could be kept, and only the partitioned one comes back inside the frame.
// A SameSite=Lax cookie is never sent to a cross-site frame; an unpartitioned SameSite=None one is a
// third-party cookie, which Chromium does not send there either.

const COOKIES = [
  'lax=1; Path=/; HttpOnly; SameSite=Lax',
  'none=1; Path=/; HttpOnly; Secure; SameSite=None',
  'part=1; Path=/; HttpOnly; Secure; SameSite=None; Partitioned',
];

/** The framed site: `/set` sets the three cookies, `/echo` shows the Cookie header it got. */
function framedSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x.invalid').pathname;
    if (path === '/set') {
      response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': COOKIES });
      response.end('<!doctype html><title>set</title><a id="next" href="/echo">next</a>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>echo</title><pre id="cookies">${request.headers.cookie ?? ''}</pre>`);
  });
  return listen(server, '127.0.0.1');
}

/** The operator's page on another site: an iframe showing `?frame=`. */
function hostPage(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://x.invalid').searchParams.get('frame') ?? '';
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>Operator</title><iframe name="f" src="${target}"></iframe>`);
  });
  return listen(server, '127.0.0.2');
}

async function listen(server: Server, host: string): Promise<{ origin: string; server: Server }> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

/** The cookie names a page of the framed site received, sorted. */
async function received(frame: Frame | Page): Promise<string[]> {
  const header = (await frame.locator('#cookies').textContent()) ?? '';
  return header
    .split(';')
    .map((c) => c.trim().split('=')[0]!)
    .filter(Boolean)
    .sort();
}

describe('cookies inside a third-party iframe, in this Chromium', () => {
  let site: { origin: string; server: Server };
  let operator: { origin: string; server: Server };
  beforeAll(async () => {
    site = await framedSite();
    operator = await hostPage();
  });
  afterAll(() => {
    site.server.close();
    operator.server.close();
  });
  const browser = useBrowser();

  const frameOf = async (page: Page, path: string): Promise<Frame> => {
    await page.goto(`${operator.origin}/?frame=${encodeURIComponent(`${site.origin}${path}`)}`);
    return (await (await page.waitForSelector('iframe[name="f"]')).contentFrame())!;
  };

  it('set inside the frame (as a sign-in link does): only the partitioned cookie comes back', async () => {
    const page = await browser.page();
    const frame = await frameOf(page, '/set');
    await frame.locator('#next').click();
    await frame.locator('#cookies').waitFor({ state: 'attached' });
    expect(await received(frame)).toEqual(['part']);
    // And it is kept in the operator's site's jar only.
    const stored = await page.context().cookies(site.origin);
    expect(stored.map((c) => [c.name, c.partitionKey])).toEqual([['part', 'http://127.0.0.2']]);
    await page.context().close();
  });

  it('set when the site was visited directly: neither the Lax nor the SameSite=None cookie reaches the frame', async () => {
    const page = await browser.page();
    await page.goto(`${site.origin}/set`);
    // The control: on the site itself, the unpartitioned cookies are sent.
    await page.goto(`${site.origin}/echo`);
    expect(await received(page)).toEqual(['lax', 'none', 'part']);
    const frame = await frameOf(page, '/echo');
    await frame.locator('#cookies').waitFor({ state: 'attached' });
    // The partitioned one set here belongs to the site's own jar, not to the operator's.
    expect(await received(frame)).toEqual([]);
    await page.context().close();
  });
});
