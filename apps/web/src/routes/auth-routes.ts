import type { FastifyInstance, FastifyRequest } from 'fastify';
import { usableReturnUrl } from '@hookline/core';
import { framedLoginPage, loginPage, type LoginField } from '../pages/login-page';
import { signedOutPage } from '../pages/signed-out-page';
import type { WebContext } from '../web-context';

type Form = Readonly<Record<string, unknown>>;
const field = (body: unknown, name: string) => {
  const value = (body as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** Only same-site paths: `//evil.example` or `/\evil` would send the visitor elsewhere after sign-in. */
export function safeNext(next: string): string | undefined {
  // Browsers drop tabs and line breaks inside URLs (`/\t/evil.example` becomes `//evil.example`, another
  // site), and a line break cannot go into a Location header: refuse any control character or space first,
  // then let the URL parser decide where the path leads and keep it only if it stays on this site.
  if (!next.startsWith('/') || /[\u0000-\u0020\u007f-\u009f\\]/.test(next)) return undefined;
  const base = 'http://hookline.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base || url.pathname.startsWith('/login')) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

function minutes(seconds: number): string {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/** Whether the browser loads this page inside a frame (its Fetch Metadata says so). */
export function isFramed(request: FastifyRequest): boolean {
  const dest = request.headers['sec-fetch-dest'];
  return dest === 'iframe' || dest === 'frame';
}

export function authRoutes(app: FastifyInstance, ctx: WebContext): void {
  app.get('/login', async (request, reply) => {
    if (await ctx.signedIn(request)) return reply.redirect('/', 303);
    if (isFramed(request)) return ctx.page(reply, framedLoginPage(ctx.brand));
    const session = await ctx.sessions.ensure(request, reply);
    const query = request.query as Form;
    const next = safeNext(typeof query.next === 'string' ? query.next : '');
    const flash = await ctx.sessions.takeFlash(request);
    return ctx.page(
      reply,
      loginPage({
        csrf: session.data.csrf,
        brand: ctx.brand,
        ...(next ? { next } : {}),
        ...(flash ? { flash } : {}),
      }),
    );
  });

  app.get('/signed-out', async (request, reply) => {
    if (await ctx.signedIn(request)) return reply.redirect('/', 303);
    return ctx.page(reply, signedOutPage(ctx.brand));
  });

  app.post('/login', async (request, reply) => {
    const email = field(request.body, 'email').trim();
    const password = field(request.body, 'password');
    const next = safeNext(field(request.body, 'next'));
    const session = await ctx.sessions.ensure(request, reply);
    const again = (error: string, status: number, invalid: LoginField[] = []) =>
      ctx.page(
        reply,
        loginPage({
          csrf: session.data.csrf,
          brand: ctx.brand,
          email,
          error,
          invalid,
          ...(next ? { next } : {}),
        }),
        status,
      );

    if (!email || !password) {
      const empty = (['email', 'password'] as const).filter((name) => !{ email, password }[name]);
      return again('Enter your email and password.', 400, empty);
    }
    const gate = await ctx.limiter.attempt(email, request.ip);
    if (!gate.allowed) {
      void reply.header('retry-after', String(gate.retryAfterSeconds));
      return again(
        `Too many failed sign-in attempts. For your security, try again in ${minutes(gate.retryAfterSeconds)}.`,
        429,
      );
    }
    const account = await ctx.deps.store.accounts.verifyPassword(email, password);
    if (!account) return again('The email or password is not correct.', 401);
    await gate.succeeded();
    await ctx.sessions.signIn(request, reply, account.id);
    return reply.redirect(next ?? '/', 303);
  });

  app.post('/logout', async (request, reply) => {
    // A sign-in link's session goes back to the operator's site it came from; without an address to send (none
    // given, or one kept before return addresses were checked), to a page that says to sign in there again:
    // the password form is of no use to a customer who signs in on the operator's site.
    const portal = (await ctx.sessions.current(request))?.data.portal;
    const returnUrl = usableReturnUrl(portal?.returnUrl);
    await ctx.sessions.signOut(request, reply);
    if (returnUrl) return reply.redirect(returnUrl, 303);
    if (portal) return reply.redirect('/signed-out', 303);
    // A fresh anonymous session carries the goodbye message and the next sign-in form's CSRF token.
    await ctx.sessions.ensure(request, reply);
    await ctx.sessions.flash(request, { kind: 'success', message: 'You are signed out.' });
    return reply.redirect('/login', 303);
  });
}
