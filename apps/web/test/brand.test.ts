import { newId } from '@hookline/core';
import { loadConfig } from '@hookline/config';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postForm, signInOverHttp } from './support/http-session';
import { useWebsite } from './support/website';

// With a brand set (product.md §16), every page a customer can open shows the operator's name, colour, logo
// and help link, and none names hookline. Driven by the route table: a page added later is scanned too.

const dir = mkdtempSync(join(tmpdir(), 'brand-web-'));
const logoFile = join(dir, 'voxtel.svg');
writeFileSync(
  logoFile,
  '<svg xmlns="http://www.w3.org/2000/svg" width="26" height="26"><rect width="26" height="26" fill="#0b5394"/></svg>',
);
const brand = loadConfig(
  {
    HOOKLINE_SECRET_KEY: 'a'.repeat(64),
    HOOKLINE_BRAND_NAME: 'Voxtel Connect',
    HOOKLINE_BRAND_COLOR: '#0b5394',
    HOOKLINE_BRAND_LOGO: logoFile,
    HOOKLINE_BRAND_SUPPORT_URL: 'https://help.voxtel.test/webhooks',
  },
  'worker',
);

/** What a customer reads: text and attributes people see or hear, not URLs of the page's own files. */
const readable = (page: string) =>
  page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/(href|src)="[^"]*"/g, '')
    .replace(/<[^>]+>/g, ' ');

describe('the operator’s brand on every page', () => {
  const w = useWebsite({
    config: () => ({
      HOOKLINE_BRAND_NAME: brand.HOOKLINE_BRAND_NAME,
      HOOKLINE_BRAND_COLOR: brand.HOOKLINE_BRAND_COLOR,
      HOOKLINE_BRAND_SUPPORT_URL: brand.HOOKLINE_BRAND_SUPPORT_URL,
      ...(brand.brandLogo ? { brandLogo: brand.brandLogo } : {}),
    }),
  });

  it('every page shows the brand and never says hookline', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'http://127.0.0.1:9/calls', description: 'CRM' });
    await w.suspend(hook.id, 3);
    const [attempt] = (await w.reader.listForHook(hook.id, {}, { limit: 1 })).data;
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', 'correct horse battery');
    const pages = w.routes
      .filter((r) => r.method === 'GET' && !r.url.startsWith('/assets/') && r.url !== '/hooks')
      .map((r) =>
        r.url
          .replace(/:id/, hook.id)
          .replace(':attemptId', attempt?.attempt_id ?? newId('att'))
          .replace(':token', 'A'.repeat(43)),
      );
    expect(pages.length).toBeGreaterThanOrEqual(10);
    const signedOut = ['/login', '/portal/' + 'A'.repeat(43), '/no-such-page'];
    const problems: string[] = [];
    for (const [path, cookie] of [
      ...pages.map((p) => [p, session.cookie] as const),
      ...signedOut.map((p) => [p, ''] as const),
    ]) {
      const res = await fetch(`${w.baseUrl}${path}${path === '/search' ? '?call_id=c-1' : ''}`, {
        headers: { cookie, accept: 'text/html' },
      });
      const page = await res.text();
      if (/hookline/i.test(readable(page)))
        problems.push(`${path}: says hookline: ${/.{0,80}hookline.{0,40}/is.exec(readable(page))?.[0]}`);
      if (!page.includes('<html')) continue; // a fragment (the live log) has no chrome
      if (!page.includes('Voxtel Connect</title>') && !page.includes('· Voxtel Connect'))
        problems.push(`${path}: no brand title`);
      if (!page.includes('<span>Voxtel Connect</span>')) problems.push(`${path}: no brand mark`);
      if (!page.includes('href="https://help.voxtel.test/webhooks"')) problems.push(`${path}: no help link`);
    }
    expect(problems).toEqual([]);

    // A refused form's reasons come from the product's own rules, worded for any brand.
    for (const header of [
      'Authorization: Bearer mine',
      'Webhook-Id: x',
      'Svix-Id: y',
      'Expect: 100-continue',
    ]) {
      const refused = await postForm(w.baseUrl, session, '/hooks', {
        url: 'https://crm.example.com/hook',
        format: 'json',
        headers_shown: '1',
        headers: header,
      });
      expect(refused.status).toBe(400);
      const reason = /id="headers-error"[^>]*>([^<]*)</.exec(await refused.text())?.[1];
      expect(reason).toContain(`Headers: ${header.split(':')[0]} `);
      expect(reason).not.toMatch(/hookline/i);
    }

    // The page showing a new signing secret once, with the receivers' code to check it.
    const signed = await postForm(w.baseUrl, session, '/hooks', {
      url: 'https://crm.example.com/signed',
      format: 'json',
      signing: '1',
    });
    expect(signed.status).toBe(303);
    const secretPage = await (
      await fetch(`${w.baseUrl}${signed.headers.get('location')}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(secretPage).toContain('whsec_');
    expect(readable(secretPage)).not.toMatch(/hookline/i);

    // The hook page's request preview shows the User-Agent the workers send under this brand.
    const hookPage = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(readable(hookPage)).toMatch(/User-Agent:\s+Voxtel-Connect-Webhooks\/1\.0/);

    // The brand's stylesheet and logo are served by the website itself.
    const home = await (await fetch(`${w.baseUrl}/`, { headers: { cookie: session.cookie } })).text();
    const css = /href="(\/assets\/brand\.[0-9a-f]{12}\.css)"/.exec(home)![1]!;
    expect(await (await fetch(`${w.baseUrl}${css}`)).text()).toContain('--primary: #0b5394');
    const logo = /src="(\/assets\/brand-logo\.[0-9a-f]{12}\.svg)"/.exec(home)![1]!;
    const served = await fetch(`${w.baseUrl}${logo}`);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(await served.text()).toContain('<rect');
    // And at a stable address, for e-mails.
    const stable = await fetch(`${w.baseUrl}/brand-logo`);
    expect([stable.status, stable.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  });
});
