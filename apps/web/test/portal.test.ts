import { newId } from '@hookline/core';
import { PortalLinks } from '@hookline/store';
import { csrfOf, type HttpSession } from './support/http-session';
import { useWebsite } from './support/website';

// Sign-in links (product.md §16): a link opens a session for its account once, before it expires; a used,
// expired or unknown link shows a page that says so and leads back to the operator's site; a read-only
// session changes nothing, whatever it tries.

const RETURN = 'https://portal.operator.test/phone-system?tab=hooks';

describe('sign-in links on the website', () => {
  const w = useWebsite();

  async function open(token: string): Promise<Response> {
    return fetch(`${w.baseUrl}/portal/${token}`, { redirect: 'manual' });
  }

  /** A link to `accountId`'s website for five minutes that leads back to RETURN. */
  const linkTo = (accountId: string, readOnly: boolean) =>
    w.portalLinks.create(accountId, { readOnly, ttlSeconds: 300, returnUrl: RETURN });

  /** Opens the link as a browser would, and reads the form token of the session it made. */
  async function sessionFrom(token: string): Promise<HttpSession> {
    const res = await open(token);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${w.baseUrl}/account`, { headers: { cookie } });
    expect(page.status).toBe(200);
    return { cookie, csrf: csrfOf(await page.text()) };
  }

  it('works once: the second use shows a page that says so and leads back', async () => {
    const account = await w.account('ops@acme.test');
    const link = await linkTo(account.id, false);
    const session = await sessionFrom(link.token);
    const home = await (await fetch(`${w.baseUrl}/`, { headers: { cookie: session.cookie } })).text();
    expect(home).toContain('Acme Telecom');

    const again = await open(link.token);
    expect(again.status).toBe(410);
    const page = await again.text();
    expect(page).toContain('This sign-in link was already used');
    expect(page).toContain(`href="${RETURN.replace('&', '&amp;')}"`);
    expect(again.headers.get('set-cookie')).toBeNull();

    const entries = (await w.audit.list(account.id, { limit: 10 })).data;
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'portal_link.used',
        actor: { kind: 'portal_session', read_only: false, link: link.link },
        detail: { link: link.link, read_only: false },
      }),
    ]);
  });

  it('two browsers opening the same link at once: exactly one gets a session', async () => {
    const account = await w.account('ops@acme.test');
    const link = await w.portalLinks.create(account.id, { readOnly: false, ttlSeconds: 300 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(link.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410, 410, 410, 410, 410, 410, 410]);
  });

  it('refuses an expired link on the server’s clock, and an unknown one', async () => {
    const account = await w.account('ops@acme.test');
    // Made 31 seconds ago with 30 seconds to live.
    const past = new PortalLinks(w.ctx.redis, w.keys, () => new Date(Date.now() - 31_000));
    const link = await past.create(account.id, { readOnly: false, ttlSeconds: 30, returnUrl: RETURN });
    const expired = await open(link.token);
    expect(expired.status).toBe(410);
    const text = await expired.text();
    expect(text).toContain('This sign-in link has expired');
    // Not "a few minutes": the operator chooses up to an hour (ttl_s 30–3600).
    expect(text).toContain('Sign-in links stop working after a while, for your security.');
    expect(text).toContain('Go back');
    expect(expired.headers.get('set-cookie')).toBeNull();

    const unknown = await open('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This sign-in link is not valid');
    expect((await w.audit.list(account.id, { limit: 10 })).data).toEqual([]);
  });

  it('signing out of a link’s session goes back to return_url; changes are marked as the link’s', async () => {
    const account = await w.account('ops@acme.test');
    const link = await linkTo(account.id, false);
    const session = await sessionFrom(link.token);
    const created = await post(session, '/hooks', {
      url: 'http://127.0.0.1:9/calls',
      format: 'json',
      auth_scheme: 'none',
    });
    expect(created.status).toBe(303);
    const [latest] = (await w.audit.list(account.id, { limit: 10 })).data;
    expect(latest).toMatchObject({
      action: 'hook.created',
      actor: { kind: 'portal_session', read_only: false, link: link.link },
    });

    const out = await post(session, '/logout', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(RETURN);
    const after = await fetch(`${w.baseUrl}/`, { headers: { cookie: session.cookie }, redirect: 'manual' });
    expect(after.headers.get('location')).toMatch(/^\/login/);
  });

  it('a return address kept unparsed (made before the API parsed them) is sent parsed, or not at all', async () => {
    const account = await w.account('ops@acme.test');
    for (const [kept, sent] of [
      ['https://x.example/€', 'https://x.example/%E2%82%AC'],
      ['https://x.example/\r\nSet-Cookie: a=b', undefined],
    ] as const) {
      const link = await w.portalLinks.create(account.id, {
        readOnly: false,
        ttlSeconds: 300,
        returnUrl: kept,
      });
      const session = await sessionFrom(link.token);
      const out = await post(session, '/logout', {});
      expect(out.status).toBe(303);
      expect(out.headers.get('location')).toBe(sent ?? '/signed-out');
      expect(out.headers.get('set-cookie')).not.toContain('a=b');
      const again = await open(link.token);
      expect(again.status).toBe(410);
      const page = await again.text();
      if (sent) expect(page).toContain(`href="${sent}"`);
      else expect(page).not.toContain('x.example');
    }
  });

  it('read-only: every changing route of the website answers 403 and nothing changes', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'http://127.0.0.1:9/calls',
      description: 'CRM',
      signing: true,
    });
    await w.suspend(hook.id, 3);
    const [attempt] = (await w.reader.listForHook(hook.id, {}, { limit: 1 })).data;
    const link = await linkTo(account.id, true);
    const session = await sessionFrom(link.token);

    // Pages show everything, with no change control (read-only-pages.test.ts looks at each in a browser),
    // and the notice says so.
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    expect(page).toContain('You can see everything here, but not change anything.');
    expect(page).toContain('CRM');
    expect(page.match(/<form\s[^>]*method="post"[^>]*>/g)).toEqual(['<form method="post" action="/logout">']);

    const before = {
      hook: await w.store.hooks.get(account.id, hook.id),
      held: await w.hookQueues.waitingCount(hook.id),
      target: await w.store.hooks.target(hook.id),
      audit: (await w.audit.list(account.id, { limit: 50 })).data,
    };
    const changing = w.routes.filter(
      (r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.url !== '/logout',
    );
    expect(changing.length).toBeGreaterThanOrEqual(8);
    const fields = {
      url: 'http://127.0.0.1:9/other',
      format: 'json',
      auth_scheme: 'none',
      description: 'changed',
      held: 'discard',
      seen_suspended_at: before.hook!.suspended_at!,
      seen_held: String(before.held),
      probe: '0',
      current_password: 'x',
      new_password: 'a new password of some length',
      confirm_password: 'a new password of some length',
    };
    const refused: string[] = [];
    for (const route of changing) {
      const path = route.url
        .replace(/:id/, hook.id)
        .replace(':attemptId', attempt?.attempt_id ?? newId('att'))
        .replace(':token', 'A'.repeat(43));
      const res = await fetch(`${w.baseUrl}${path}`, {
        method: route.method,
        headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: session.csrf, ...fields }).toString(),
        redirect: 'manual',
      });
      if (res.status === 403 && (await res.text()).includes('You can look, but not change anything here'))
        refused.push(`${route.method} ${route.url}`);
    }
    expect(refused).toEqual(changing.map((r) => `${r.method} ${r.url}`));

    expect(await w.store.hooks.get(account.id, hook.id)).toEqual(before.hook);
    expect(await w.hookQueues.waitingCount(hook.id)).toBe(before.held);
    expect(await w.store.hooks.target(hook.id)).toEqual(before.target);
    expect((await w.audit.list(account.id, { limit: 50 })).data).toEqual(before.audit);
    // Still signed in, and signing out still works (to return_url).
    expect((await post(session, '/logout', {})).headers.get('location')).toBe(RETURN);
  });

  it('without HOOKLINE_FRAME_ANCESTORS no page may frame the website, and link sessions keep a Lax cookie', async () => {
    const res = await fetch(`${w.baseUrl}/login`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const account = await w.account('ops@acme.test');
    const link = await linkTo(account.id, true);
    const opened = await open(link.token);
    expect(opened.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax$/);
    // The page a link's session sees lets its sign-out form lead back to the operator's site.
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${w.baseUrl}/`, { headers: { cookie } });
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://portal.operator.test;",
    );
  });

  // A mail filter or a chat preview asks with HEAD before the customer clicks; a page framing the link while
  // no page may frame the website never shows what it gets. Neither may spend the customer's link.
  it('a HEAD, or a load inside a frame the website refuses, leaves the link unused and unaudited', async () => {
    const account = await w.account('ops@acme.test');
    const link = await linkTo(account.id, false);
    const head = await fetch(`${w.baseUrl}/portal/${link.token}`, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('set-cookie'), head.headers.get('cache-control')]).toEqual([
      200,
      null,
      'no-store',
    ]);
    const framed = await fetch(`${w.baseUrl}/portal/${link.token}`, {
      redirect: 'manual',
      headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expect([framed.status, framed.headers.get('set-cookie')]).toEqual([403, null]);
    expect(await framed.text()).toContain('This page cannot be shown inside another site');
    expect((await w.audit.list(account.id, { limit: 50 })).data.map((e) => e.action)).not.toContain(
      'portal_link.used',
    );
    // The customer's own click still signs in.
    await sessionFrom(link.token);
  });

  it('an account made without a password: its page offers no password change, and a posted one changes nothing', async () => {
    const account = await w.store.accounts.create({ name: 'Portal only', email: 'portal@acme.test' });
    const session = await sessionFrom((await linkTo(account.id, false)).token);
    const page = await (await fetch(`${w.baseUrl}/account`, { headers: { cookie: session.cookie } })).text();
    expect(page).toContain("This account has no password: you open it from your provider's site.");
    expect(page).not.toContain('Current password');
    const posted = await post(session, '/account/password', {
      current_password: 'anything at all',
      new_password: 'a new password 123',
      confirm_password: 'a new password 123',
    });
    expect([posted.status, posted.headers.get('location')]).toEqual([303, '/account']);
    await expect(w.store.accounts.hasPassword(account.id)).resolves.toBe(false);
    // Nothing was guessed, so nothing counts against the sign-in limits.
    await expect(w.ctx.redis.exists(w.keys.loginAttempts('email:portal@acme.test'))).resolves.toBe(0);
    // An account with a password is offered the change, as before.
    const withPassword = await w.account('pw@acme.test');
    const other = await sessionFrom((await linkTo(withPassword.id, false)).token);
    const form = await (await fetch(`${w.baseUrl}/account`, { headers: { cookie: other.cookie } })).text();
    expect(form).toContain('Current password');
  });

  function post(session: HttpSession, path: string, fields: Record<string, string>) {
    return fetch(`${w.baseUrl}${path}`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: session.csrf, ...fields }).toString(),
      redirect: 'manual',
    });
  }
});
