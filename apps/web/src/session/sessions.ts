import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackName } from '@hookline/config';
import { readCookie, readCookies, setCookie } from './cookies';
import { randomBytes } from 'node:crypto';
import type {
  Flash,
  PendingSecret,
  PortalSession,
  Session,
  SessionData,
  SessionStore,
} from './session-store';

// Long enough to open the page on a slow link; short so a secret never lingers in the session.
const PENDING_SECRET_MS = 5 * 60_000;

export const SESSION_COOKIE = 'hookline_session';
/** Over https the cookie is `Secure`, and the `__Host-` prefix makes browsers refuse it otherwise, or with a
 * Domain: no plain-http page or sibling subdomain can set or overwrite it. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Set before a sign-in link is used, to see whether the browser keeps the session's cookie (portal-routes). */
const COOKIE_CHECK = 'hookline_cookie_check';

/** Binds Redis sessions to requests through an HttpOnly, SameSite cookie. */
export class Sessions {
  // Per-request cache, so a handler and its guards read Redis once.
  private readonly loaded = new WeakMap<FastifyRequest, Session | null>();

  private readonly cookie: string;

  /** `secure`: the site is served over https (HOOKLINE_PUBLIC_URL), whatever protocol reaches this process. */
  /** `embeddable`: HOOKLINE_FRAME_ANCESTORS is set, so sign-in links' sessions use a partitioned cookie. */
  constructor(
    private readonly store: SessionStore,
    private readonly secure: boolean,
    private readonly embeddable = false,
  ) {
    this.cookie = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  }

  async current(request: FastifyRequest): Promise<Session | undefined> {
    const cached = this.loaded.get(request);
    if (cached !== undefined) return cached ?? undefined;
    // A top-level page of a site that may be framed can get two session cookies, the link's partitioned one
    // and an ordinary one set earlier (an anonymous session before sign-in): the first that is live counts.
    // A browser keeps no more than those two; a request naming more is not a browser's.
    let session: Session | undefined;
    for (const id of readCookies(request, this.cookie).slice(0, 2)) {
      session = await this.store.get(id);
      if (session) break;
    }
    // A session from before the account's password was changed is over, on every device.
    if (session?.data.accountId && !(await this.store.isCurrent(session, session.data.accountId))) {
      await this.store.destroy(session.id);
      session = undefined;
    }
    this.loaded.set(request, session ?? null);
    return session;
  }

  /** The visitor's session, creating an anonymous one so a form can carry a CSRF token. */
  async ensure(request: FastifyRequest, reply: FastifyReply): Promise<Session> {
    const existing = await this.current(request);
    if (existing) return existing;
    return this.start(request, reply, undefined);
  }

  /** A fresh id on sign-in: a session id planted before sign-in (fixation) never becomes signed in. */
  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: string,
    portal?: PortalSession,
  ): Promise<Session> {
    const old = await this.current(request);
    if (old) await this.store.destroy(old.id);
    return this.start(request, reply, accountId, portal);
  }

  /** Ends every session of the account (a password change); the caller then signs this visitor in anew. */
  async endAllFor(accountId: string): Promise<void> {
    await this.store.endAllFor(accountId);
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = await this.current(request);
    if (session) await this.store.destroy(session.id);
    this.loaded.set(request, null);
    setCookie(reply, this.cookie, '', { ...this.cookieOptions(session?.data.portal), maxAge: 0 });
    this.expireOtherCookie(reply, session?.data.portal);
  }

  async update(request: FastifyRequest, change: (data: SessionData) => SessionData): Promise<void> {
    const session = await this.current(request);
    if (!session) return;
    const next = { id: session.id, data: change(session.data) };
    await this.store.save(next.id, next.data);
    this.loaded.set(request, next);
  }

  /**
   * Whether a sign-in link's session cookie may not be kept by the browser: partitioned cookies are `Secure`,
   * which browsers keep over https and on loopback hosts only. Reached over plain http at another name (or
   * through an https proxy hookline was not told of), the link checks first (`setCookieCheck`).
   */
  linkCookieMayBeDropped(request: FastifyRequest): boolean {
    if (!this.embeddable || this.secure || request.protocol === 'https') return false;
    return !isLoopbackName(hostnameOf(request.headers.host));
  }

  /**
   * Sets a short-lived cookie the way a sign-in link's session cookie would be set: whether it comes back on
   * the next request says whether this browser keeps that session here (`keptCookieCheck`).
   */
  setCookieCheck(reply: FastifyReply): void {
    // As a link's session would be (cookieOptions): partitioned when the site may be framed.
    setCookie(reply, COOKIE_CHECK, '1', { secure: this.secure, partitioned: this.embeddable, maxAge: 60 });
  }

  /** Whether the check cookie came back; one that did is deleted, its answer given. */
  keptCookieCheck(request: FastifyRequest, reply: FastifyReply): boolean {
    const kept = readCookie(request, COOKIE_CHECK) === '1';
    if (kept)
      setCookie(reply, COOKIE_CHECK, '', { secure: this.secure, partitioned: this.embeddable, maxAge: 0 });
    return kept;
  }

  /** A one-time message shown on the next page the visitor sees (after a redirect). */
  async flash(request: FastifyRequest, flash: Flash): Promise<void> {
    await this.update(request, (data) => ({ ...data, flash }));
  }

  async takeFlash(request: FastifyRequest): Promise<Flash | undefined> {
    const flash = (await this.current(request))?.data.flash;
    if (flash) await this.update(request, ({ flash: _taken, ...rest }) => rest);
    return flash;
  }

  // Only a sign-in link's session can live in the operator's iframe; a password session stays SameSite=Lax.
  private cookieOptions(portal: PortalSession | undefined) {
    return { secure: this.secure, partitioned: this.embeddable && portal !== undefined };
  }

  /** Keeps a new signing secret for one GET; returns the token that GET must carry. */
  async stashSecret(
    request: FastifyRequest,
    hookId: string,
    secret: string,
    rotated: boolean,
  ): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    const pendingSecret: PendingSecret = {
      token,
      hookId,
      secret,
      rotated,
      until: Date.now() + PENDING_SECRET_MS,
    };
    await this.update(request, (data) => ({ ...data, pendingSecret }));
    return token;
  }

  /** The stashed secret for this hook and token, forgotten as it is taken: a second GET finds nothing. */
  async takeSecret(
    request: FastifyRequest,
    hookId: string,
    token: string,
  ): Promise<PendingSecret | undefined> {
    const pending = (await this.current(request))?.data.pendingSecret;
    if (!pending || pending.token !== token || pending.hookId !== hookId) return undefined;
    await this.update(request, ({ pendingSecret: _taken, ...rest }) => rest);
    return pending.until >= Date.now() ? pending : undefined;
  }

  private async start(
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: string | undefined,
    portal?: PortalSession,
  ): Promise<Session> {
    const session = await this.store.create(accountId, portal);
    this.loaded.set(request, session);
    setCookie(reply, this.cookie, session.id, this.cookieOptions(portal));
    this.expireOtherCookie(reply, portal);
    return session;
  }

  /**
   * Deletes the session cookie of the other kind (ordinary or partitioned), so that a browser does not keep
   * sending one that names an ended session beside the one in use. Only a site that may be framed sets both.
   */
  private expireOtherCookie(reply: FastifyReply, portal: PortalSession | undefined): void {
    if (!this.embeddable) return;
    const other = !this.cookieOptions(portal).partitioned;
    setCookie(reply, this.cookie, '', { secure: this.secure, partitioned: other, maxAge: 0 });
  }
}

/** The Host header's name (`[::1]` bracketed, as URL gives it), or '' when it is missing or not a host. */
function hostnameOf(host: string | undefined): string {
  try {
    return host ? new URL(`http://${host}`).hostname : '';
  } catch {
    return '';
  }
}
